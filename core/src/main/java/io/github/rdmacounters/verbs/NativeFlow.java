package io.github.rdmacounters.verbs;

import com.sun.jna.Function;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.verbs.IbvHandles.IbvFlow;
import io.github.rdmacounters.verbs.VerbsOps.Op;

/**
 * A native steering flow ({@code struct ibv_flow}) with a count action, owned by a
 * {@link NativeDevice}.
 */
final class NativeFlow extends NativeChild implements Flow {

	private final IbvFlow handle;

	private final int port;

	private final FlowSpec spec;

	private final NativeCounters counters;

	NativeFlow(NativeDevice device, IbvFlow handle, int port, FlowSpec spec, NativeCounters counters) {
		super(device);
		this.handle = handle;
		this.port = port;
		this.spec = spec;
		this.counters = counters;
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public FlowSpec spec() {
		return this.spec;
	}

	@Override
	String kind() {
		return "flow";
	}

	@Override
	void destroy() {
		Function destroy = this.device.ops().get(Op.DESTROY_FLOW);
		int rc = (destroy != null) ? destroy.invokeInt(new Object[] { this.handle.getPointer() }) : Errno.EOPNOTSUPP;
		if (rc != 0) {
			throw Verbs.failure(Op.DESTROY_FLOW.verb(), rc, describe());
		}
	}

	@Override
	void destroyed() {
		this.counters.unbind(this);
		this.device.removed(this);
	}

	@Override
	void released() {
		this.counters.unbind(this);
	}

	private String describe() {
		return "flow '" + this.spec.describe() + "' on " + this.device.name() + " port " + this.port;
	}

	@Override
	public String toString() {
		return "Flow[" + describe() + (isClosed() ? ", closed]" : "]");
	}

}

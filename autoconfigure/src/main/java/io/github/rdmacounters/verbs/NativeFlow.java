package io.github.rdmacounters.verbs;

import java.util.concurrent.atomic.AtomicBoolean;

import com.sun.jna.Function;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.verbs.IbvHandles.IbvFlow;
import io.github.rdmacounters.verbs.VerbsOps.Op;

/**
 * A native steering flow ({@code struct ibv_flow}) with a count action, owned by a
 * {@link NativeDevice}.
 *
 * @author rdma-counters
 */
final class NativeFlow implements Flow {

	private final NativeDevice device;

	private final IbvFlow handle;

	private final int port;

	private final FlowSpec spec;

	private final NativeCounters counters;

	private final AtomicBoolean closed = new AtomicBoolean();

	private boolean destroyed;

	NativeFlow(NativeDevice device, IbvFlow handle, int port, FlowSpec spec, NativeCounters counters) {
		this.device = device;
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
	public boolean isClosed() {
		return this.closed.get() || this.device.isClosed();
	}

	@Override
	public void close() {
		this.device.writeLock().lock();
		try {
			closeLocked();
		}
		finally {
			this.device.writeLock().unlock();
		}
	}

	/**
	 * Destroy the flow. Call with the device's write lock held. If destroying fails the flow
	 * stays closed for Java and the next close (or the device's close) tries again, unless the
	 * device closed its context meanwhile: that freed the flow, so nothing is called.
	 */
	void closeLocked() {
		this.closed.set(true);
		if (this.destroyed) {
			return;
		}
		if (this.device.contextClosed()) {
			freedWithContext();
			return;
		}
		Function destroy = this.device.ops().get(Op.DESTROY_FLOW);
		int rc = (destroy != null) ? destroy.invokeInt(new Object[] { this.handle.getPointer() }) : Errno.EOPNOTSUPP;
		if (rc != 0) {
			throw Verbs.failure(Op.DESTROY_FLOW.verb(), rc, describe());
		}
		this.destroyed = true;
		this.counters.unbind(this);
		this.device.removed(this);
	}

	/**
	 * Record that {@code ibv_close_device} freed this flow. Call with the device's write lock
	 * held.
	 */
	void freedWithContext() {
		this.closed.set(true);
		this.destroyed = true;
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

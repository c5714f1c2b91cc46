package io.github.rdmacounters.simulated;

import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.Packet;

/**
 * A simulated steering flow with a count action, installed in its
 * {@link SimulatedHardware} while it exists.
 */
final class SimulatedFlow implements Flow {

	private final SimulatedDevice device;

	private final int port;

	private final FlowSpec spec;

	private final SimulatedCounters counters;

	private long sequence;

	private volatile boolean closed;

	private boolean destroyed;

	SimulatedFlow(SimulatedDevice device, int port, FlowSpec spec, SimulatedCounters counters) {
		this.device = device;
		this.port = port;
		this.spec = spec;
		this.counters = counters;
	}

	void assignSequence(long sequence) {
		this.sequence = sequence;
	}

	long sequence() {
		return this.sequence;
	}

	SimulatedCounters counters() {
		return this.counters;
	}

	void count(Packet packet) {
		this.counters.count(packet);
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
		return this.closed;
	}

	@Override
	public void close() {
		this.device.closeChild(this::destroy);
	}

	// Closed for Java from the first call; a failed ibv_destroy_flow leaves it installed
	// and counting, and the next close tries again, as the native binding does
	void destroy() {
		this.closed = true;
		if (this.destroyed) {
			return;
		}
		this.device.owner().beforeVerb("ibv_destroy_flow");
		release();
	}

	void release() {
		this.closed = true;
		this.destroyed = true;
		this.device.hardware().remove(this);
		this.counters.unbind(this);
		this.device.forget(this);
	}

	@Override
	public String toString() {
		return "Flow on " + this.device.name() + " port " + this.port + " (" + this.spec + ")";
	}

}

package io.github.rdmacounters.simulated;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import io.github.rdmacounters.core.CounterPoint;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.CountersSnapshot;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.core.ReadMode;

/**
 * A simulated counters handle with mlx5 semantics, guarded by the hardware monitor.
 */
final class SimulatedCounters implements Counters {

	private final SimulatedDevice device;

	private final SimulatedHardware hardware;

	private final List<CounterPoint> points = new ArrayList<>();

	// mlx5_create_flow/mlx5_destroy_flow keep a refcount of the flows sharing the handle
	private final List<SimulatedFlow> flows = new ArrayList<>();

	private long[] values = new long[0];

	private volatile boolean closed;

	private boolean destroyed;

	SimulatedCounters(SimulatedDevice device) {
		this.device = device;
		this.hardware = device.hardware();
	}

	SimulatedDevice device() {
		return this.device;
	}

	@Override
	public void attach(CounterType type, int index) {
		Objects.requireNonNull(type, "type");
		CounterPoint point = new CounterPoint(type, index);
		this.device.run(this::checkOpen, () -> {
			this.device.owner().beforeVerb("ibv_attach_counters_point_flow");
			synchronized (this.hardware) {
				// mlx5_attach_counters_point_flow: EBUSY while refcount != 0
				if (!this.flows.isEmpty()) {
					throw new RdmaOperationException("ibv_attach_counters_point_flow", Errno.EBUSY,
							"the counters handle is bound to a flow; attach every point before creating the flow");
				}
				this.points.add(point);
			}
			return null;
		});
	}

	@Override
	public List<CounterPoint> points() {
		synchronized (this.hardware) {
			return List.copyOf(this.points);
		}
	}

	@Override
	public int size() {
		synchronized (this.hardware) {
			return sizeOf(this.points);
		}
	}

	private static int sizeOf(List<CounterPoint> points) {
		return points.stream().mapToInt((point) -> point.index() + 1).max().orElse(0);
	}

	@Override
	public boolean isBound() {
		synchronized (this.hardware) {
			return this.flows.stream().anyMatch((flow) -> !flow.isClosed());
		}
	}

	@Override
	public void read(long[] destination, ReadMode mode) {
		Objects.requireNonNull(destination, "destination");
		Objects.requireNonNull(mode, "mode");
		this.device.run(this::checkOpen, () -> {
			this.device.owner().beforeVerb("ibv_read_counters");
			synchronized (this.hardware) {
				if (this.flows.isEmpty()) {
					throw new RdmaOperationException("ibv_read_counters", Errno.EINVAL,
							"the counters handle is bound to no flow; create a flow with it before reading");
				}
				if (destination.length < this.values.length) {
					throw new RdmaOperationException("ibv_read_counters", Errno.EINVAL, "the handle has "
							+ this.values.length + " counter(s) but the array has room for " + destination.length);
				}
				System.arraycopy(this.values, 0, destination, 0, this.values.length);
			}
			return null;
		});
	}

	@Override
	public CountersSnapshot read(ReadMode mode) {
		long[] destination = new long[size()];
		read(destination, mode);
		return new CountersSnapshot(destination, this.device.owner().clock().instant());
	}

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	@Override
	public void close() {
		this.device.closeChild(this::destroy);
	}

	private void checkOpen() {
		if (this.closed) {
			throw new RdmaClosedException(describe());
		}
	}

	// The first flow needs a point (mlx5's allocate_flow_counters_descriptions: EINVAL);
	// further flows share the handle. Under the hardware monitor.
	void bind(SimulatedFlow newFlow) {
		if (this.flows.isEmpty() && this.points.isEmpty()) {
			throw new RdmaOperationException("ibv_create_flow", Errno.EINVAL,
					"the counters handle has no point attached; attach packets and/or bytes first");
		}
		this.flows.add(newFlow);
		int size = sizeOf(this.points);
		if (this.values.length < size) {
			this.values = Arrays.copyOf(this.values, size);
		}
	}

	void unbind(SimulatedFlow oldFlow) {
		synchronized (this.hardware) {
			this.flows.remove(oldFlow);
		}
	}

	void count(Packet packet) {
		for (CounterPoint point : this.points) {
			this.values[point.index()] += (point.type() == CounterType.PACKETS) ? 1 : packet.length();
		}
	}

	// Closed for Java from the first call; a failed destroy is retried from that step on
	// the next close, as in the native binding
	void destroy() {
		this.closed = true;
		if (this.destroyed) {
			return;
		}
		List<SimulatedFlow> bound;
		synchronized (this.hardware) {
			bound = List.copyOf(this.flows);
		}
		for (SimulatedFlow flow : bound) {
			flow.destroy();
		}
		this.device.owner().beforeVerb("ibv_destroy_counters");
		synchronized (this.hardware) {
			// uverbs destroy of a counters object still in use: EBUSY
			if (!this.flows.isEmpty()) {
				throw new RdmaOperationException("ibv_destroy_counters", Errno.EBUSY,
						"the counters handle is still bound to a flow");
			}
		}
		release();
	}

	void release() {
		this.closed = true;
		this.destroyed = true;
		this.device.forget(this);
	}

	private String describe() {
		return "Counters on " + this.device.name();
	}

	@Override
	public String toString() {
		return describe() + " " + points() + (this.closed ? " (closed)" : "");
	}

}

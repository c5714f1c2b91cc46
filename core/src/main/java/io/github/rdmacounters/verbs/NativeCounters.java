package io.github.rdmacounters.verbs;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.CounterPoint;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.ReadMode;
import io.github.rdmacounters.verbs.IbvHandles.IbvCounters;
import io.github.rdmacounters.verbs.VerbsOps.Op;

/**
 * A native counters handle ({@code struct ibv_counters}). A read allocates nothing: it
 * reuses a native buffer and a prepared {@link ReadCountersCall} (or
 * {@link Function#invokeInt} with prebuilt arguments), under the device's read lock and
 * this handle's monitor. Several flows may share the handle, as mlx5's {@code refcount}
 * allows ({@code mlx5_create_flow} in {@code providers/mlx5/verbs.c}); {@link #close()}
 * destroys them first, since the kernel refuses counters in use ({@code EBUSY}).
 */
final class NativeCounters extends NativeChild implements Counters {

	// struct ibv_counter_attach_attr
	static final int ATTACH_ATTR_SIZE = 12;

	static final int ATTACH_ATTR_COUNTER_DESC = 0;

	static final int ATTACH_ATTR_INDEX = 4;

	static final int ATTACH_ATTR_COMP_MASK = 8;

	private final IbvCounters handle;

	private final Pointer pointer;

	// Read without the monitor, which a read stuck in native code holds
	private final List<CounterPoint> points = new CopyOnWriteArrayList<>();

	private final @Nullable Function readCounters;

	private final @Nullable ReadCountersCall readCall;

	private volatile int size;

	// Guarded by the device's lock
	private final List<NativeFlow> flows = new CopyOnWriteArrayList<>();

	private Memory buffer = new Memory(Long.BYTES);

	private Object[] freshArgs;

	private Object[] cachedArgs;

	NativeCounters(NativeDevice device, IbvCounters handle, boolean preparedReads) {
		super(device);
		this.handle = handle;
		this.pointer = handle.getPointer();
		Function read = device.ops().get(Op.READ_COUNTERS);
		this.readCounters = read;
		this.readCall = (preparedReads && read != null) ? ReadCountersCall.create(read, this.pointer, this.buffer)
				: null;
		this.freshArgs = readArgs(0, ReadMode.FRESH.flags());
		this.cachedArgs = readArgs(0, ReadMode.PREFER_CACHED.flags());
	}

	NativeDevice device() {
		return this.device;
	}

	IbvCounters handle() {
		return this.handle;
	}

	private Object[] readArgs(int count, int flags) {
		return new Object[] { this.pointer, this.buffer, count, flags };
	}

	// Call with a device lock held
	void ensureOpen() {
		if (closedForJava() || this.device.isClosed()) {
			throw new RdmaClosedException(describe());
		}
	}

	@Override
	public void attach(CounterType type, int index) {
		CounterPoint point = new CounterPoint(type, index);
		this.device.readLock().lock();
		try {
			ensureOpen();
			Function attach = this.device.ops().get(Op.ATTACH_COUNTERS_POINT_FLOW);
			if (attach == null) {
				throw Verbs.failure(Op.ATTACH_COUNTERS_POINT_FLOW.verb(), Errno.EOPNOTSUPP,
						this.device.ops().whyMissing(Op.ATTACH_COUNTERS_POINT_FLOW));
			}
			Memory attr = new Memory(ATTACH_ATTR_SIZE);
			attr.setInt(ATTACH_ATTR_COUNTER_DESC, type.nativeValue());
			attr.setInt(ATTACH_ATTR_INDEX, index);
			attr.setInt(ATTACH_ATTR_COMP_MASK, 0);
			int rc = attach.invokeInt(new Object[] { this.pointer, attr, null });
			if (rc != 0) {
				throw Verbs.failure(Op.ATTACH_COUNTERS_POINT_FLOW.verb(), rc, attachFailureDetail(rc, point));
			}
			synchronized (this) {
				this.points.add(point);
				int newSize = Math.max(this.size, index + 1);
				if (newSize != this.size) {
					this.buffer = new Memory((long) newSize * Long.BYTES);
					this.buffer.clear();
					if (this.readCall != null) {
						this.readCall.buffer(this.buffer);
					}
					this.size = newSize;
					this.freshArgs = readArgs(newSize, ReadMode.FRESH.flags());
					this.cachedArgs = readArgs(newSize, ReadMode.PREFER_CACHED.flags());
				}
			}
		}
		finally {
			this.device.readLock().unlock();
		}
	}

	private String attachFailureDetail(int errno, CounterPoint point) {
		String what = point.type() + " at index " + point.index() + " on " + this.device.name();
		if (errno == Errno.EBUSY) {
			return what + ": points can only be attached before the counters are bound to a flow";
		}
		String explanation = Errno.explain(Op.ATTACH_COUNTERS_POINT_FLOW.verb(), errno);
		return (explanation != null) ? what + ": " + explanation : what;
	}

	@Override
	public List<CounterPoint> points() {
		return List.copyOf(this.points);
	}

	@Override
	public int size() {
		return this.size;
	}

	@Override
	public boolean isBound() {
		return this.flows.stream().anyMatch((flow) -> !flow.isClosed());
	}

	void bind(NativeFlow flow) {
		this.flows.add(flow);
	}

	void unbind(NativeFlow flow) {
		this.flows.remove(flow);
	}

	@Override
	public void read(long[] values, ReadMode mode) {
		this.device.readLock().lock();
		try {
			ensureOpen();
			Function read = this.readCounters;
			if (read == null) {
				throw Verbs.failure(Op.READ_COUNTERS.verb(), Errno.EOPNOTSUPP,
						this.device.ops().whyMissing(Op.READ_COUNTERS));
			}
			synchronized (this) {
				int count = this.size;
				boolean enough = values.length >= count;
				int rc;
				ReadCountersCall call = this.readCall;
				if (call != null) {
					rc = call.invoke(enough ? count : values.length, mode.flags());
				}
				else if (enough) {
					rc = read.invokeInt((mode == ReadMode.FRESH) ? this.freshArgs : this.cachedArgs);
				}
				else {
					rc = read.invokeInt(new Object[] { this.pointer, this.buffer, values.length, mode.flags() });
				}
				if (rc != 0) {
					throw Verbs.failure(Op.READ_COUNTERS.verb(), rc, readFailureDetail(rc, values.length));
				}
				this.buffer.read(0, values, 0, Math.min(count, values.length));
			}
		}
		finally {
			this.device.readLock().unlock();
		}
	}

	private String readFailureDetail(int errno, int slots) {
		String what = describe();
		if (errno == Errno.EINVAL && this.flows.isEmpty()) {
			return what + " are bound to no flow; create a flow with them first";
		}
		if (errno == Errno.EINVAL && slots < this.size) {
			return what + " need " + this.size + " slots, but the array has " + slots;
		}
		return what;
	}

	@Override
	String kind() {
		return "counters";
	}

	@Override
	void destroy() {
		for (NativeFlow flow : List.copyOf(this.flows)) {
			flow.closeLocked();
		}
		Function destroy = this.device.ops().get(Op.DESTROY_COUNTERS);
		int rc = (destroy != null) ? destroy.invokeInt(new Object[] { this.pointer }) : Errno.EOPNOTSUPP;
		if (rc != 0) {
			throw Verbs.failure(Op.DESTROY_COUNTERS.verb(), rc, describe());
		}
	}

	@Override
	void destroyed() {
		this.device.removed(this);
	}

	@Override
	void released() {
		this.flows.clear();
	}

	private String describe() {
		return "Counters on " + this.device.name();
	}

	@Override
	public String toString() {
		return describe() + " " + points() + (isBound() ? ", bound" : "") + (isClosed() ? ", closed" : "");
	}

}

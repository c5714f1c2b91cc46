package io.github.rdmacounters.verbs;

import java.util.concurrent.locks.Lock;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.DeviceEventListener;
import io.github.rdmacounters.core.DeviceEventListeners;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;
import io.github.rdmacounters.verbs.IbvHandles.IbvCounters;
import io.github.rdmacounters.verbs.IbvHandles.IbvFlow;
import io.github.rdmacounters.verbs.IbvHandles.IbvQp;
import io.github.rdmacounters.verbs.VerbsOps.Op;

/**
 * An open libibverbs context and everything created from it, under the lock and close
 * order of {@link OrderedClose}. Flows hang on one raw packet queue pair per port,
 * created on the port's first flow and moved to INIT and RTR.
 */
final class NativeDevice implements RdmaDevice {

	// struct ibv_counters_init_attr: just comp_mask
	static final int COUNTERS_INIT_ATTR_SIZE = 4;

	static final int COUNTERS_INIT_ATTR_COMP_MASK = 0;

	private final IbvLibrary lib;

	private final String name;

	private final IbvContext context;

	private final VerbsOps ops;

	private final DeviceQueries queries;

	private final RawPacketQueuePairs queuePairs;

	private final OrderedClose lifecycle;

	private final boolean preparedReads;

	private final DeviceEventListeners eventListeners = new DeviceEventListeners();

	private @Nullable AsyncEventReader eventReader;

	private boolean eventsStopped;

	NativeDevice(IbvLibrary lib, String name, IbvContext context, boolean preparedReads) {
		this.preparedReads = preparedReads;
		this.lib = lib;
		this.name = name;
		this.context = context;
		this.ops = VerbsOps.of(context.getPointer());
		this.queries = new DeviceQueries(lib, name, context, this.ops);
		this.queuePairs = new RawPacketQueuePairs(lib, name, context);
		this.lifecycle = new OrderedClose(name);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String backend() {
		return NativeBackend.NAME;
	}

	Lock readLock() {
		return this.lifecycle.readLock();
	}

	Lock writeLock() {
		return this.lifecycle.writeLock();
	}

	boolean tryWriteLock() {
		return this.lifecycle.tryWriteLock();
	}

	void closeLater(String what, Runnable close) {
		this.lifecycle.closeLater(what, close);
	}

	VerbsOps ops() {
		return this.ops;
	}

	// Call with a lock held
	void ensureOpen() {
		this.lifecycle.ensureOpen();
	}

	@Override
	public DeviceAttributes queryDevice() {
		readLock().lock();
		try {
			ensureOpen();
			IbvDeviceAttr attr = this.queries.queryDeviceAttr();
			long flags = attr.device_cap_flags & 0xFFFF_FFFFL;
			return new DeviceAttributes(attr.firmwareVersion(), Verbs.be64ToHost(attr.node_guid), attr.vendor_id,
					attr.vendor_part_id, attr.phys_port_cnt & 0xFF, flags);
		}
		finally {
			readLock().unlock();
		}
	}

	@Override
	public PortAttributes queryPort(int port) {
		IbvPortAttr attr = queryPortAttr(port);
		return new PortAttributes(port, PortState.of(attr.state), attr.phys_state & 0xFF,
				LinkLayer.of(attr.link_layer & 0xFF), Verbs.mtuBytes(attr.active_mtu), attr.speed(),
				attr.active_width & 0xFF);
	}

	IbvPortAttr queryPortAttr(int port) {
		checkPort(port);
		readLock().lock();
		try {
			ensureOpen();
			return this.queries.queryPortAttr(port);
		}
		finally {
			readLock().unlock();
		}
	}

	private static void checkPort(int port) {
		if (port < 1 || port > PortAttributes.MAX_PORT) {
			throw new IllegalArgumentException(
					"Port numbers start at 1 and end at " + PortAttributes.MAX_PORT + ", but was " + port);
		}
	}

	@Override
	public Counters createCounters() {
		writeLock().lock();
		try {
			ensureOpen();
			Function create = this.ops.get(Op.CREATE_COUNTERS);
			if (create == null) {
				throw Verbs.failure(Op.CREATE_COUNTERS.verb(), Errno.EOPNOTSUPP,
						this.ops.whyMissing(Op.CREATE_COUNTERS));
			}
			Memory initAttr = new Memory(COUNTERS_INIT_ATTR_SIZE);
			initAttr.setInt(COUNTERS_INIT_ATTR_COMP_MASK, 0);
			Pointer handle = (Pointer) create.invoke(Pointer.class,
					new Object[] { this.context.getPointer(), initAttr });
			if (handle == null) {
				int errno = Native.getLastError();
				// libibverbs' dummy ops answer EOPNOTSUPP, or ENOSYS before rdma-core v28
				throw Verbs
					.failure(Op.CREATE_COUNTERS.verb(), errno, (errno == Errno.EOPNOTSUPP || errno == Errno.ENOSYS)
							? "only the mlx5 provider implements flow " + "counters; device " + this.name + " has none"
							: null);
			}
			NativeCounters created = new NativeCounters(this, new IbvCounters(handle), this.preparedReads);
			this.lifecycle.added(created);
			return created;
		}
		finally {
			writeLock().unlock();
		}
	}

	// For the host diagnosis: the queue pair resources of a port ahead of any flow
	void createQueuePair(int port) {
		checkPort(port);
		writeLock().lock();
		try {
			ensureOpen();
			this.queuePairs.queuePair(port);
		}
		finally {
			writeLock().unlock();
		}
	}

	@Override
	public Flow createFlow(int port, FlowSpec spec, Counters counters) {
		checkPort(port);
		if (!(counters instanceof NativeCounters nativeCounters) || nativeCounters.device() != this) {
			throw new IllegalArgumentException("The counters of a flow on " + this.name
					+ " must be created by the same device, but were " + counters);
		}
		writeLock().lock();
		try {
			ensureOpen();
			nativeCounters.ensureOpen();
			if (!this.queries.managedFlowSteering()) {
				throw Verbs.failure(Op.CREATE_FLOW.verb(), Errno.EOPNOTSUPP,
						"device " + this.name
								+ " does not support managed flow steering (IBV_DEVICE_MANAGED_FLOW_STEERING), "
								+ "which flow counters need");
			}
			Function create = this.ops.get(Op.CREATE_FLOW);
			if (create == null) {
				throw Verbs.failure(Op.CREATE_FLOW.verb(), Errno.EOPNOTSUPP, this.ops.whyMissing(Op.CREATE_FLOW));
			}
			IbvQp queuePair = this.queuePairs.queuePair(port);
			Memory attr = FlowEncoder.encode(port, spec, nativeCounters.handle().getPointer());
			Pointer handle = (Pointer) create.invoke(Pointer.class, new Object[] { queuePair.getPointer(), attr });
			if (handle == null) {
				int errno = Native.getLastError();
				throw Verbs.failure(Op.CREATE_FLOW.verb(), errno, flowFailureDetail(errno, port, spec, nativeCounters));
			}
			NativeFlow flow = new NativeFlow(this, new IbvFlow(handle), port, spec, nativeCounters);
			nativeCounters.bind(flow);
			this.lifecycle.added(flow);
			return flow;
		}
		finally {
			writeLock().unlock();
		}
	}

	private String flowFailureDetail(int errno, int port, FlowSpec spec, NativeCounters counters) {
		String what = "flow '" + spec.describe() + "' on " + this.name + " port " + port;
		if (errno == Errno.EINVAL && counters.points().isEmpty()) {
			return what + ": the counters have no point attached; attach packets or bytes first";
		}
		if (errno == Errno.EBUSY && counters.isBound()) {
			return what + ": the counters already feed another flow";
		}
		if (errno == Errno.EINVAL && !spec.dontTrap()) {
			return what;
		}
		if (errno == Errno.ENOMEM) {
			what += " at priority " + spec.priority();
		}
		String explanation = Errno.explain(Op.CREATE_FLOW.verb(), errno);
		return (explanation != null) ? what + ": " + explanation : what;
	}

	void removed(NativeCounters child) {
		this.lifecycle.removed(child);
	}

	void removed(NativeFlow child) {
		this.lifecycle.removed(child);
	}

	// Once ibv_close_device succeeded, no handle of the context may reach native code.
	// Call with a device lock held.
	boolean contextClosed() {
		return this.lifecycle.contextClosed();
	}

	@Override
	public boolean isClosed() {
		return this.lifecycle.isClosed();
	}

	// The first listener starts the event reader
	@Override
	public void addEventListener(DeviceEventListener listener) {
		writeLock().lock();
		try {
			ensureOpen();
			this.eventListeners.add(listener);
			if (this.eventReader == null && !this.eventsStopped) {
				this.eventReader = AsyncEventReader.start(this, this.lib, this.context, this.eventListeners);
			}
		}
		finally {
			writeLock().unlock();
		}
	}

	@Override
	public void removeEventListener(DeviceEventListener listener) {
		this.eventListeners.remove(listener);
	}

	// Before close takes the write lock, so the reader's pending read completes first
	private void stopEventReader() {
		AsyncEventReader reader;
		writeLock().lock();
		try {
			this.eventsStopped = true;
			reader = this.eventReader;
			this.eventReader = null;
		}
		finally {
			writeLock().unlock();
		}
		if (reader != null) {
			reader.stop();
		}
	}

	/**
	 * Close the flows, counters, queue pair resources, then the context. No call starts
	 * after this; while one is stuck in native code (its firmware command not answered),
	 * a daemon thread closes once it has returned, and this returns at once.
	 */
	@Override
	public void close() {
		this.lifecycle.markClosed();
		if (!this.lifecycle.tryWriteLock()) {
			this.lifecycle.closeLater("RDMA device " + this.name, this::closeNow);
			return;
		}
		// no call is in native code, and none starts: the device is closed for calls
		writeLock().unlock();
		closeNow();
	}

	private void closeNow() {
		stopEventReader();
		this.lifecycle.close(this.queuePairs::destroy, () -> {
			int rc = this.lib.ibv_close_device(this.context);
			if (rc != 0) {
				throw Verbs.failure("ibv_close_device", rc, "closing " + this.name);
			}
		}, this.queuePairs::freedWithContext);
	}

	@Override
	public String toString() {
		return "NativeDevice[" + this.name + (isClosed() ? ", closed]" : "]");
	}

}

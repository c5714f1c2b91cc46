package io.github.rdmacounters.verbs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

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
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;
import io.github.rdmacounters.verbs.IbvHandles.IbvCounters;
import io.github.rdmacounters.verbs.IbvHandles.IbvCq;
import io.github.rdmacounters.verbs.IbvHandles.IbvFlow;
import io.github.rdmacounters.verbs.IbvHandles.IbvPd;
import io.github.rdmacounters.verbs.IbvHandles.IbvQp;
import io.github.rdmacounters.verbs.VerbsOps.Op;

/**
 * An open libibverbs context and everything created from it.
 * <p>
 * One device-wide read-write lock guards every native handle: calls take the read lock
 * and check that the device (and their object) is open before touching native code;
 * creating and closing objects take the write lock. So a close racing a read either waits
 * for the read or makes it fail with {@link RdmaClosedException}; no call ever reaches a
 * destroyed handle. Flows hang on one raw packet queue pair per port, created on the
 * port's first flow and moved to INIT (bound to the port) and RTR before any flow
 * attaches to it. Closing the device destroys its flows, counters, queue pairs,
 * completion queue and protection domain, in that order, then closes the context.
 *
 * @author rdma-counters
 */
final class NativeDevice implements RdmaDevice {

	/** {@code sizeof(struct ibv_counters_init_attr)}: just {@code comp_mask}. */
	static final int COUNTERS_INIT_ATTR_SIZE = 4;

	/** {@code offsetof(struct ibv_counters_init_attr, comp_mask)}. */
	static final int COUNTERS_INIT_ATTR_COMP_MASK = 0;

	/** {@code sizeof(struct ibv_qp_attr)}. */
	static final int QP_ATTR_SIZE = 144;

	/** {@code offsetof(struct ibv_qp_attr, qp_state)}. */
	static final int QP_ATTR_QP_STATE = 0;

	/** {@code offsetof(struct ibv_qp_attr, port_num)}. */
	static final int QP_ATTR_PORT_NUM = 129;

	private final IbvLibrary lib;

	private final String name;

	private final IbvContext context;

	private final VerbsOps ops;

	private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

	private final AtomicBoolean closed = new AtomicBoolean();

	private final List<NativeCounters> counters = new ArrayList<>();

	private final List<NativeFlow> flows = new ArrayList<>();

	private @Nullable IbvPd pd;

	private @Nullable IbvCq cq;

	private final Map<Integer, IbvQp> queuePairs = new TreeMap<>();

	private long capabilityFlags = -1;

	private boolean contextClosed;

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
		return this.lock.readLock();
	}

	Lock writeLock() {
		return this.lock.writeLock();
	}

	VerbsOps ops() {
		return this.ops;
	}

	/**
	 * Throw if the device is closed; call with a lock held.
	 */
	void ensureOpen() {
		if (this.closed.get()) {
			throw new RdmaClosedException("Device " + this.name);
		}
	}

	@Override
	public DeviceAttributes queryDevice() {
		readLock().lock();
		try {
			ensureOpen();
			IbvDeviceAttr attr = queryDeviceAttr();
			long flags = attr.device_cap_flags & 0xFFFF_FFFFL;
			return new DeviceAttributes(attr.firmwareVersion(), Verbs.be64ToHost(attr.node_guid), attr.vendor_id,
					attr.vendor_part_id, attr.phys_port_cnt & 0xFF, flags);
		}
		finally {
			readLock().unlock();
		}
	}

	private IbvDeviceAttr queryDeviceAttr() {
		IbvDeviceAttr attr = new IbvDeviceAttr();
		int rc = this.lib.ibv_query_device(this.context, attr);
		if (rc != 0) {
			throw Verbs.failure("ibv_query_device", rc, "device " + this.name);
		}
		return attr;
	}

	@Override
	public PortAttributes queryPort(int port) {
		IbvPortAttr attr = queryPortAttr(port);
		return new PortAttributes(port, PortState.of(attr.state), attr.phys_state & 0xFF,
				LinkLayer.of(attr.link_layer & 0xFF), Verbs.mtuBytes(attr.active_mtu), attr.active_speed & 0xFF,
				attr.active_width & 0xFF);
	}

	/**
	 * Query a port the way the {@code ibv_query_port} macro of {@code verbs.h} does:
	 * through the full-size {@code query_port} op with the size of the structure, or
	 * through the exported compat symbol where the context has no such op.
	 * @param port the port number
	 * @return the attributes
	 */
	IbvPortAttr queryPortAttr(int port) {
		checkPort(port);
		readLock().lock();
		try {
			ensureOpen();
			IbvPortAttr attr = new IbvPortAttr();
			Function queryPort = this.ops.get(Op.QUERY_PORT);
			int rc;
			if (queryPort != null) {
				rc = queryPort
					.invokeInt(new Object[] { this.context.getPointer(), (byte) port, attr, (long) attr.size() });
				attr.read();
			}
			else {
				rc = this.lib.ibv_query_port(this.context, (byte) port, attr);
			}
			if (rc != 0) {
				throw Verbs.failure("ibv_query_port", rc, "device " + this.name + " port " + port);
			}
			return attr;
		}
		finally {
			readLock().unlock();
		}
	}

	private static void checkPort(int port) {
		if (port < 1 || port > 255) {
			throw new IllegalArgumentException("Port numbers start at 1 and end at 255, but was " + port);
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
				throw Verbs.failure(Op.CREATE_COUNTERS.verb(), errno, (errno == Errno.EOPNOTSUPP)
						? "only the mlx5 provider implements flow counters; device " + this.name + " has none" : null);
			}
			NativeCounters created = new NativeCounters(this, new IbvCounters(handle), this.preparedReads);
			this.counters.add(created);
			return created;
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
			if (!managedFlowSteering()) {
				throw Verbs.failure(Op.CREATE_FLOW.verb(), Errno.EOPNOTSUPP,
						"device " + this.name
								+ " does not support managed flow steering (IBV_DEVICE_MANAGED_FLOW_STEERING), "
								+ "which flow counters need");
			}
			Function create = this.ops.get(Op.CREATE_FLOW);
			if (create == null) {
				throw Verbs.failure(Op.CREATE_FLOW.verb(), Errno.EOPNOTSUPP, this.ops.whyMissing(Op.CREATE_FLOW));
			}
			IbvQp queuePair = queuePair(port);
			Memory attr = FlowEncoder.encode(port, spec, nativeCounters.handle().getPointer());
			Pointer handle = (Pointer) create.invoke(Pointer.class, new Object[] { queuePair.getPointer(), attr });
			if (handle == null) {
				int errno = Native.getLastError();
				throw Verbs.failure(Op.CREATE_FLOW.verb(), errno, flowFailureDetail(errno, port, spec, nativeCounters));
			}
			NativeFlow flow = new NativeFlow(this, new IbvFlow(handle), port, spec, nativeCounters);
			nativeCounters.bind(flow);
			this.flows.add(flow);
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
		if (errno == Errno.EPERM || errno == Errno.EACCES) {
			return what + ": steering rules need CAP_NET_RAW";
		}
		return what;
	}

	private boolean managedFlowSteering() {
		if (this.capabilityFlags < 0) {
			this.capabilityFlags = queryDeviceAttr().device_cap_flags & 0xFFFF_FFFFL;
		}
		return (this.capabilityFlags & DeviceAttributes.MANAGED_FLOW_STEERING) != 0;
	}

	/**
	 * Return the raw packet queue pair the flows of a port hang on, creating it on first
	 * use (with the protection domain and completion queue all ports share) and moving it
	 * to INIT on that port, then to RTR, as mlx5 needs before steering rules attach. Call
	 * with the write lock held. A failure leaves nothing behind that no queue pair uses.
	 * @param port the port number
	 * @return the queue pair, in RTR
	 */
	private IbvQp queuePair(int port) {
		IbvQp existing = this.queuePairs.get(port);
		if (existing != null) {
			return existing;
		}
		try {
			IbvPd sharedPd = protectionDomain();
			IbvCq sharedCq = completionQueue();
			IbvQpInitAttr attr = new IbvQpInitAttr();
			attr.send_cq = sharedCq.getPointer();
			attr.recv_cq = sharedCq.getPointer();
			attr.max_send_wr = 1;
			attr.max_recv_wr = 1;
			attr.max_send_sge = 1;
			attr.max_recv_sge = 1;
			attr.qp_type = IbvLibrary.IBV_QPT_RAW_PACKET;
			IbvQp newQp = this.lib.ibv_create_qp(sharedPd, attr);
			if (newQp == null) {
				int errno = Native.getLastError();
				throw Verbs.failure("ibv_create_qp", errno, (errno == Errno.EPERM)
						? "raw packet QP needs CAP_NET_RAW (run with that capability, e.g. setcap cap_net_raw+ep on java)"
						: "raw packet queue pair on " + this.name + " port " + port);
			}
			try {
				Memory qpAttr = new Memory(QP_ATTR_SIZE);
				qpAttr.clear();
				qpAttr.setInt(QP_ATTR_QP_STATE, IbvLibrary.IBV_QPS_INIT);
				qpAttr.setByte(QP_ATTR_PORT_NUM, (byte) port);
				modify(newQp, qpAttr, IbvLibrary.IBV_QP_STATE | IbvLibrary.IBV_QP_PORT, "INIT", port);
				qpAttr.setInt(QP_ATTR_QP_STATE, IbvLibrary.IBV_QPS_RTR);
				modify(newQp, qpAttr, IbvLibrary.IBV_QP_STATE, "RTR", port);
			}
			catch (RdmaOperationException ex) {
				int rc = this.lib.ibv_destroy_qp(newQp);
				if (rc != 0) {
					ex.addSuppressed(Verbs.failure("ibv_destroy_qp", rc, "after a failed ibv_modify_qp"));
				}
				throw ex;
			}
			this.queuePairs.put(port, newQp);
			return newQp;
		}
		catch (RdmaOperationException ex) {
			if (this.queuePairs.isEmpty()) {
				releaseShared(ex);
			}
			throw ex;
		}
	}

	private void modify(IbvQp queuePair, Memory attr, int mask, String state, int port) {
		int rc = this.lib.ibv_modify_qp(queuePair, attr, mask);
		if (rc != 0) {
			throw Verbs.failure("ibv_modify_qp", rc,
					"moving the raw packet queue pair of " + this.name + " port " + port + " to " + state);
		}
	}

	private IbvPd protectionDomain() {
		IbvPd existing = this.pd;
		if (existing != null) {
			return existing;
		}
		IbvPd created = this.lib.ibv_alloc_pd(this.context);
		if (created == null) {
			throw Verbs.failure("ibv_alloc_pd", Native.getLastError(), "device " + this.name);
		}
		this.pd = created;
		return created;
	}

	private IbvCq completionQueue() {
		IbvCq existing = this.cq;
		if (existing != null) {
			return existing;
		}
		IbvCq created = this.lib.ibv_create_cq(this.context, 1, null, null, 0);
		if (created == null) {
			throw Verbs.failure("ibv_create_cq", Native.getLastError(), "device " + this.name);
		}
		this.cq = created;
		return created;
	}

	/**
	 * Destroy the completion queue and protection domain that no queue pair uses after a
	 * failed creation; failures are added to the creation's exception.
	 */
	private void releaseShared(RdmaOperationException failure) {
		IbvCq oldCq = this.cq;
		if (oldCq != null) {
			int rc = this.lib.ibv_destroy_cq(oldCq);
			if (rc == 0) {
				this.cq = null;
			}
			else {
				failure.addSuppressed(Verbs.failure("ibv_destroy_cq", rc, "device " + this.name));
			}
		}
		IbvPd oldPd = this.pd;
		if (oldPd != null && this.cq == null) {
			int rc = this.lib.ibv_dealloc_pd(oldPd);
			if (rc == 0) {
				this.pd = null;
			}
			else {
				failure.addSuppressed(Verbs.failure("ibv_dealloc_pd", rc, "device " + this.name));
			}
		}
	}

	void removed(NativeCounters child) {
		this.counters.remove(child);
	}

	void removed(NativeFlow child) {
		this.flows.remove(child);
	}

	/**
	 * Return whether {@code ibv_close_device} succeeded: every handle of the context is
	 * freed and must not reach native code again. Call with a device lock held.
	 * @return {@code true} once the context is closed
	 */
	boolean contextClosed() {
		return this.contextClosed;
	}

	@Override
	public boolean isClosed() {
		return this.closed.get();
	}

	/**
	 * Add a listener; the first one starts the {@link AsyncEventReader} of this context.
	 */
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

	/**
	 * Stop and join the event reader; it never starts again. Called before close takes
	 * the write lock, so the reader's pending read under the read lock completes first.
	 */
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
	 * Close the flows, the counters, the queue pair, the completion queue, the protection
	 * domain, then the context. A step that fails is reported (the first failure is
	 * thrown, later ones are suppressed into it) without stopping the rest: closing the
	 * context releases in the kernel whatever a failed destroy left. Once the context is
	 * closed, every handle left is freed with it: its owner is marked destroyed and makes
	 * no native call again. Until then, calling close again retries the steps that
	 * failed.
	 */
	@Override
	public void close() {
		stopEventReader();
		writeLock().lock();
		try {
			this.closed.set(true);
			if (this.contextClosed) {
				return;
			}
			RdmaOperationException failure = null;
			for (NativeFlow flow : List.copyOf(this.flows)) {
				failure = collect(failure, flow::closeLocked);
			}
			for (NativeCounters child : List.copyOf(this.counters)) {
				failure = collect(failure, child::closeLocked);
			}
			failure = collect(failure, this::destroyQueuePairs);
			failure = collect(failure, () -> {
				int rc = this.lib.ibv_close_device(this.context);
				if (rc != 0) {
					throw Verbs.failure("ibv_close_device", rc, "closing " + this.name);
				}
				this.contextClosed = true;
				abandonChildren();
			});
			if (failure != null) {
				throw failure;
			}
		}
		finally {
			writeLock().unlock();
		}
	}

	/**
	 * Forget every handle the closed context freed: flows and counters whose destroy
	 * failed, queue pairs, completion queue and protection domain.
	 */
	private void abandonChildren() {
		for (NativeFlow flow : List.copyOf(this.flows)) {
			flow.freedWithContext();
		}
		for (NativeCounters child : List.copyOf(this.counters)) {
			child.freedWithContext();
		}
		this.flows.clear();
		this.counters.clear();
		this.queuePairs.clear();
		this.cq = null;
		this.pd = null;
	}

	private void destroyQueuePairs() {
		var iterator = this.queuePairs.entrySet().iterator();
		RdmaOperationException failure = null;
		while (iterator.hasNext()) {
			IbvQp oldQp = iterator.next().getValue();
			int rc = this.lib.ibv_destroy_qp(oldQp);
			if (rc == 0) {
				iterator.remove();
			}
			else if (failure == null) {
				failure = Verbs.failure("ibv_destroy_qp", rc, "closing " + this.name);
			}
			else {
				failure.addSuppressed(Verbs.failure("ibv_destroy_qp", rc, "closing " + this.name));
			}
		}
		if (failure != null) {
			throw failure;
		}
		IbvCq oldCq = this.cq;
		if (oldCq != null) {
			check("ibv_destroy_cq", this.lib.ibv_destroy_cq(oldCq));
			this.cq = null;
		}
		IbvPd oldPd = this.pd;
		if (oldPd != null) {
			check("ibv_dealloc_pd", this.lib.ibv_dealloc_pd(oldPd));
			this.pd = null;
		}
	}

	private void check(String verb, int rc) {
		if (rc != 0) {
			throw Verbs.failure(verb, rc, "closing " + this.name);
		}
	}

	private static @Nullable RdmaOperationException collect(@Nullable RdmaOperationException failure, Runnable action) {
		try {
			action.run();
			return failure;
		}
		catch (RdmaOperationException ex) {
			if (failure == null) {
				return ex;
			}
			failure.addSuppressed(ex);
			return failure;
		}
	}

	@Override
	public String toString() {
		return "NativeDevice[" + this.name + (isClosed() ? ", closed]" : "]");
	}

}

package io.github.rdmacounters.simulated;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.DeviceEventListener;
import io.github.rdmacounters.core.DeviceEventListeners;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.Flow;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.PortAttributes;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;

/**
 * An opened simulated device context. Calls hold the read lock and check "closed", closes
 * hold the write lock; children and queue pairs are guarded by the hardware monitor. As
 * in the native backend, the first flow on a port creates the shared protection domain
 * and completion queue and the port's raw packet queue pair.
 */
final class SimulatedDevice implements RdmaDevice {

	private final SimulatedBackend backend;

	private final SimulatedHardware hardware;

	private final ReadWriteLock lock = new ReentrantReadWriteLock();

	private final List<SimulatedFlow> flows = new ArrayList<>();

	private final List<SimulatedCounters> counters = new ArrayList<>();

	private final Map<Integer, NativeResource> queuePairs = new TreeMap<>();

	private @Nullable NativeResource protectionDomain;

	private @Nullable NativeResource completionQueue;

	private volatile boolean closed;

	private final DeviceEventListeners eventListeners = new DeviceEventListeners();

	/** The device went away under this context (disassociated). */
	private volatile boolean gone;

	SimulatedDevice(SimulatedBackend backend, SimulatedHardware hardware) {
		this.backend = backend;
		this.hardware = hardware;
	}

	SimulatedBackend owner() {
		return this.backend;
	}

	SimulatedHardware hardware() {
		return this.hardware;
	}

	@Override
	public String name() {
		return this.hardware.name();
	}

	@Override
	public String backend() {
		return SimulatedBackend.NAME;
	}

	@Override
	public DeviceAttributes queryDevice() {
		return run(() -> {
		}, () -> {
			this.backend.beforeVerb("ibv_query_device");
			SimulatedDeviceSpec spec = this.hardware.spec();
			long flags = spec.managedFlowSteering() ? DeviceAttributes.MANAGED_FLOW_STEERING : 0;
			return new DeviceAttributes(spec.firmwareVersion(), spec.nodeGuid(), spec.vendorId(), spec.vendorPartId(),
					spec.portCount(), flags);
		});
	}

	@Override
	public PortAttributes queryPort(int port) {
		return run(() -> {
		}, () -> {
			this.backend.beforeVerb("ibv_query_port");
			if (!this.hardware.hasPort(port)) {
				throw new RdmaOperationException("ibv_query_port", Errno.EINVAL, noSuchPort(port));
			}
			return this.hardware.portAttributes(port);
		});
	}

	@Override
	public Counters createCounters() {
		return run(() -> {
		}, () -> {
			this.backend.beforeVerb("ibv_create_counters");
			if (!this.hardware.spec().countersSupported()) {
				throw new RdmaOperationException("ibv_create_counters", Errno.EOPNOTSUPP,
						"only the mlx5 provider implements flow counters");
			}
			SimulatedCounters created = new SimulatedCounters(this);
			synchronized (this.hardware) {
				this.counters.add(created);
			}
			this.backend.track(created);
			return created;
		});
	}

	@Override
	public Flow createFlow(int port, FlowSpec spec, Counters counters) {
		Objects.requireNonNull(spec, "spec");
		Objects.requireNonNull(counters, "counters");
		if (!(counters instanceof SimulatedCounters simulated) || simulated.device() != this) {
			throw new IllegalArgumentException(
					"The counters were not created by this device (" + name() + "); use device.createCounters()");
		}
		checkPort(port);
		return run(() -> {
			if (simulated.isClosed()) {
				throw new RdmaClosedException("Counters on " + name());
			}
		}, () -> {
			if (!this.hardware.spec().managedFlowSteering()) {
				throw new RdmaOperationException("ibv_create_flow", Errno.EOPNOTSUPP,
						"the device does not report IBV_DEVICE_MANAGED_FLOW_STEERING");
			}
			synchronized (this.hardware) {
				ensureQueuePair(port);
				this.backend.beforeVerb("ibv_create_flow");
				checkFlow(spec);
				SimulatedFlow flow = new SimulatedFlow(this, port, spec, simulated);
				simulated.bind(flow);
				this.hardware.install(flow);
				this.flows.add(flow);
				this.backend.track(flow);
				return flow;
			}
		});
	}

	// What mlx5 refuses: a priority beyond MLX5_IB_FLOW_LAST_PRIO (mlx5_ib_create_flow:
	// ENOMEM) and, before Linux 5.8, a counted don't-trap flow (create_dont_trap_rule:
	// EINVAL). ib_uverbs_ex_create_flow does not check the queue pair's state.
	private void checkFlow(FlowSpec spec) {
		if (spec.priority() > SimulatedHardware.LAST_PRIORITY) {
			throw new RdmaOperationException("ibv_create_flow", Errno.ENOMEM, "priority " + spec.priority()
					+ " is beyond mlx5's last user priority, " + SimulatedHardware.LAST_PRIORITY);
		}
		if (spec.dontTrap() && this.hardware.spec().linuxBefore58()) {
			throw new RdmaOperationException("ibv_create_flow", Errno.EINVAL,
					"a don't-trap flow with a count action needs Linux 5.8 or later");
		}
	}

	private static void checkPort(int port) {
		if (port < 1 || port > PortAttributes.MAX_PORT) {
			throw new IllegalArgumentException(
					"Port numbers start at 1 and end at " + PortAttributes.MAX_PORT + ", but was " + port);
		}
	}

	// Under the hardware monitor; a failure leaves nothing that no queue pair uses
	private void ensureQueuePair(int port) {
		if (this.queuePairs.containsKey(port)) {
			return;
		}
		try {
			if (this.protectionDomain == null) {
				this.backend.beforeVerb("ibv_alloc_pd");
				this.protectionDomain = new NativeResource("PD on " + name());
				this.backend.track(this.protectionDomain);
			}
			if (this.completionQueue == null) {
				this.backend.beforeVerb("ibv_create_cq");
				this.completionQueue = new NativeResource("CQ on " + name());
				this.backend.track(this.completionQueue);
			}
			try {
				this.backend.beforeVerb("ibv_create_qp");
			}
			catch (RdmaOperationException ex) {
				if (ex.errno() != Errno.EPERM) {
					throw ex;
				}
				// the kernel wants CAP_NET_RAW for a raw packet QP
				throw new RdmaOperationException("ibv_create_qp", Errno.EPERM,
						"raw packet QP needs CAP_NET_RAW (run with that capability, e.g. setcap cap_net_raw+ep on java)");
			}
			NativeResource queuePair = new NativeResource("raw packet QP on " + name() + " port " + port);
			this.backend.track(queuePair);
			try {
				// RESET to INIT (with the port) to RTR, as the native binding does
				this.backend.beforeVerb("ibv_modify_qp");
				if (!this.hardware.hasPort(port)) {
					throw new RdmaOperationException("ibv_modify_qp", Errno.EINVAL,
							"moving the raw packet queue pair of " + name() + " port " + port + " to INIT");
				}
				this.backend.beforeVerb("ibv_modify_qp");
			}
			catch (RuntimeException ex) {
				destroyQueuePair(queuePair, ex);
				throw ex;
			}
			this.queuePairs.put(port, queuePair);
			this.hardware.queuePairCreated(queuePair, port);
		}
		catch (RuntimeException ex) {
			if (this.queuePairs.isEmpty()) {
				releaseShared(ex);
			}
			throw ex;
		}
	}

	private void destroyQueuePair(NativeResource queuePair, RuntimeException cause) {
		try {
			this.backend.beforeVerb("ibv_destroy_qp");
		}
		catch (RuntimeException ex) {
			cause.addSuppressed(ex);
		}
		this.backend.untrack(queuePair);
	}

	// After a failed creation, as the native binding does
	private void releaseShared(RuntimeException failure) {
		NativeResource oldCq = this.completionQueue;
		if (oldCq != null) {
			try {
				this.backend.beforeVerb("ibv_destroy_cq");
				this.backend.untrack(oldCq);
				this.completionQueue = null;
			}
			catch (RuntimeException ex) {
				failure.addSuppressed(ex);
			}
		}
		NativeResource oldPd = this.protectionDomain;
		if (oldPd != null && this.completionQueue == null) {
			try {
				this.backend.beforeVerb("ibv_dealloc_pd");
				this.backend.untrack(oldPd);
				this.protectionDomain = null;
			}
			catch (RuntimeException ex) {
				failure.addSuppressed(ex);
			}
		}
	}

	private String noSuchPort(int port) {
		return "port " + port + " does not exist; " + name() + " has ports 1 to " + this.hardware.portCount();
	}

	// Under the read lock, after checking that the device and the child are open
	<T> T run(Runnable checkChild, Supplier<T> action) {
		Lock readLock = this.lock.readLock();
		readLock.lock();
		try {
			if (this.closed) {
				throw new RdmaClosedException("Device " + name());
			}
			checkChild.run();
			if (this.gone) {
				throw new RdmaOperationException("uverbs command", Errno.EIO,
						"simulated device " + name() + " went away (IBV_EVENT_DEVICE_FATAL); reopen it");
			}
			return action.get();
		}
		finally {
			readLock.unlock();
		}
	}

	// Nothing to do once the device closed: that closed every child
	void closeChild(Runnable destroy) {
		Lock writeLock = this.lock.writeLock();
		writeLock.lock();
		try {
			if (this.closed) {
				return;
			}
			destroy.run();
		}
		finally {
			writeLock.unlock();
		}
	}

	void forget(Object child) {
		synchronized (this.hardware) {
			this.flows.remove(child);
			this.counters.remove(child);
		}
		this.backend.untrack(child);
	}

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	@Override
	public void addEventListener(DeviceEventListener listener) {
		run(() -> {
		}, () -> {
			this.eventListeners.add(listener);
			return null;
		});
	}

	@Override
	public void removeEventListener(DeviceEventListener listener) {
		this.eventListeners.remove(listener);
	}

	boolean deliver(DeviceEvent event) {
		if (this.closed || this.gone) {
			return false;
		}
		this.eventListeners.publish(event);
		return true;
	}

	// Every later call fails with EIO
	void disassociate() {
		this.gone = true;
	}

	boolean deliverFatal(DeviceEvent event) {
		if (this.closed) {
			return false;
		}
		this.eventListeners.publish(event);
		return true;
	}

	/**
	 * Destroy every child through its verb, then close the context; every object is freed
	 * even if a destroy fails, as closing the device's file descriptor makes the kernel
	 * do.
	 */
	@Override
	public void close() {
		Lock writeLock = this.lock.writeLock();
		writeLock.lock();
		try {
			if (this.closed) {
				return;
			}
			this.closed = true;
			List<RuntimeException> failures = new ArrayList<>();
			List<SimulatedFlow> flowsToClose;
			List<SimulatedCounters> countersToClose;
			synchronized (this.hardware) {
				flowsToClose = List.copyOf(this.flows);
				countersToClose = List.copyOf(this.counters);
			}
			for (SimulatedFlow flow : flowsToClose) {
				attempt(flow::destroy, failures);
				flow.release();
			}
			for (SimulatedCounters handle : countersToClose) {
				attempt(handle::destroy, failures);
				handle.release();
			}
			List<NativeResource> resources = new ArrayList<>();
			synchronized (this.hardware) {
				resources.addAll(this.queuePairs.values());
				this.queuePairs.clear();
			}
			for (NativeResource queuePair : resources) {
				attempt(() -> this.backend.beforeVerb("ibv_destroy_qp"), failures);
				this.hardware.queuePairDestroyed(queuePair);
				this.backend.untrack(queuePair);
			}
			if (this.completionQueue != null) {
				attempt(() -> this.backend.beforeVerb("ibv_destroy_cq"), failures);
				this.backend.untrack(this.completionQueue);
				this.completionQueue = null;
			}
			if (this.protectionDomain != null) {
				attempt(() -> this.backend.beforeVerb("ibv_dealloc_pd"), failures);
				this.backend.untrack(this.protectionDomain);
				this.protectionDomain = null;
			}
			attempt(() -> this.backend.beforeVerb("ibv_close_device"), failures);
			this.backend.untrack(this);
			this.backend.events().closed(this);
			if (!failures.isEmpty()) {
				RuntimeException first = failures.get(0);
				failures.stream().skip(1).forEach(first::addSuppressed);
				throw first;
			}
		}
		finally {
			writeLock.unlock();
		}
	}

	private static void attempt(Runnable action, List<RuntimeException> failures) {
		try {
			action.run();
		}
		catch (RuntimeException ex) {
			failures.add(ex);
		}
	}

	@Override
	public String toString() {
		return "SimulatedDevice " + name() + (this.closed ? " (closed)" : "");
	}

}

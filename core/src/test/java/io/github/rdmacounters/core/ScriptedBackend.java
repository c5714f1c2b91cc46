package io.github.rdmacounters.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.testsupport.ScriptedDevice;

/**
 * A backend of one device whose opens a test scripts: each open takes the next context
 * the test offered, and fails with {@link DeviceNotFoundException} while there is none
 * (the device is gone). Every context it handed out is kept, and the event listeners of
 * each are reachable, so a test can raise an event on a context.
 *
 * @author rdma-counters
 */
class ScriptedBackend implements RdmaBackend {

	private final String device;

	private final Queue<EventfulDevice> offered = new ConcurrentLinkedQueue<>();

	private final List<EventfulDevice> opened = new CopyOnWriteArrayList<>();

	private final AtomicInteger opens = new AtomicInteger();

	ScriptedBackend(String device) {
		this.device = device;
	}

	/**
	 * Offer a fresh context to the next open.
	 * @return the context
	 */
	EventfulDevice present() {
		EventfulDevice context = new EventfulDevice(new ScriptedDevice(this.device, "scripted"));
		this.offered.add(context);
		return context;
	}

	/**
	 * Return the contexts opened so far, in order.
	 * @return the contexts
	 */
	List<EventfulDevice> opened() {
		return this.opened;
	}

	/**
	 * Return how many opens were tried, failed or not.
	 * @return the count
	 */
	int opens() {
		return this.opens.get();
	}

	@Override
	public String name() {
		return "scripted";
	}

	@Override
	public List<DeviceId> devices() {
		return this.offered.isEmpty() ? List.of() : List.of(new DeviceId(this.device, 1));
	}

	@Override
	public RdmaDevice open(String deviceName) {
		this.opens.incrementAndGet();
		EventfulDevice context = this.device.equals(deviceName) ? this.offered.poll() : null;
		if (context == null) {
			throw new DeviceNotFoundException(deviceName, List.of());
		}
		this.opened.add(context);
		return context;
	}

	@Override
	public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
		throw new UnsupportedOperationException();
	}

	@Override
	public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl) {
		throw new UnsupportedOperationException();
	}

	/**
	 * A {@link ScriptedDevice} that keeps its event listeners, so that a test raises
	 * events on it in its own thread, and that can fail its device query.
	 */
	static final class EventfulDevice implements RdmaDevice {

		private final ScriptedDevice scripted;

		private final List<DeviceEventListener> listeners = new CopyOnWriteArrayList<>();

		private volatile @Nullable RuntimeException deviceQueryFailure;

		private volatile @Nullable RuntimeException closeFailure;

		private volatile @Nullable RuntimeException listenerFailure;

		private volatile Runnable beforeQueryDevice = () -> {
		};

		EventfulDevice(ScriptedDevice scripted) {
			this.scripted = scripted;
		}

		ScriptedDevice scripted() {
			return this.scripted;
		}

		void failDeviceQuery(@Nullable RuntimeException failure) {
			this.deviceQueryFailure = failure;
		}

		void failClose(@Nullable RuntimeException failure) {
			this.closeFailure = failure;
		}

		void failAddListener(@Nullable RuntimeException failure) {
			this.listenerFailure = failure;
		}

		/**
		 * Run something at the start of each {@link #queryDevice()}, where another thread
		 * of a race would come in.
		 * @param action what to run
		 */
		void beforeQueryDevice(Runnable action) {
			this.beforeQueryDevice = action;
		}

		List<DeviceEventListener> listeners() {
			return new ArrayList<>(this.listeners);
		}

		/**
		 * Pass an event to the listeners, in the calling thread.
		 * @param type the event type
		 * @param port the port, 0 for a device event
		 */
		void raise(DeviceEvent.Type type, int port) {
			DeviceEvent event = new DeviceEvent(name(), port, type, java.time.Instant.EPOCH);
			this.listeners.forEach((listener) -> listener.onEvent(event));
		}

		@Override
		public String name() {
			return this.scripted.name();
		}

		@Override
		public String backend() {
			return this.scripted.backend();
		}

		@Override
		public DeviceAttributes queryDevice() {
			this.beforeQueryDevice.run();
			RuntimeException failure = this.deviceQueryFailure;
			if (failure != null) {
				throw failure;
			}
			return this.scripted.queryDevice();
		}

		@Override
		public PortAttributes queryPort(int port) {
			return this.scripted.queryPort(port);
		}

		@Override
		public Counters createCounters() {
			return this.scripted.createCounters();
		}

		@Override
		public Flow createFlow(int port, FlowSpec spec, Counters counters) {
			return this.scripted.createFlow(port, spec, counters);
		}

		@Override
		public void addEventListener(DeviceEventListener listener) {
			RuntimeException failure = this.listenerFailure;
			if (failure != null) {
				throw failure;
			}
			this.listeners.add(listener);
		}

		@Override
		public void removeEventListener(DeviceEventListener listener) {
			this.listeners.remove(listener);
		}

		@Override
		public boolean isClosed() {
			return this.scripted.isClosed();
		}

		@Override
		public void close() {
			this.scripted.close();
			RuntimeException failure = this.closeFailure;
			if (failure != null) {
				throw failure;
			}
		}

	}

}

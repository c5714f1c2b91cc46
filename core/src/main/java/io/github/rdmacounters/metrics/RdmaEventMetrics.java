package io.github.rdmacounters.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.DeviceEventTracker;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortEventState;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * {@link MeterBinder} for the asynchronous events of the managed devices, for every port
 * of each device: {@code rdma.port.events} by event, {@code rdma.port.state.last.change},
 * and per device {@code rdma.device.failed} and {@code rdma.device.reopens}. Values come
 * from the devices' {@link DeviceEventTracker}s; no meter reads the device. Removes its
 * meters on {@link #close()}.
 *
 * @since 0.1.0
 */
public class RdmaEventMetrics implements MeterBinder, AutoCloseable {

	public static final String EVENTS = "rdma.port.events";

	public static final String LAST_STATE_CHANGE = "rdma.port.state.last.change";

	public static final String FAILED = "rdma.device.failed";

	public static final String REOPENS = "rdma.device.reopens";

	private final List<TrackedDevice> devices;

	private final Iterable<Tag> tags;

	private final Object lock = new Object();

	private final List<RdmaFlowMetrics.Registration> registrations = new ArrayList<>();

	public RdmaEventMetrics(RdmaRegistry registry) {
		this(registry, Tags.empty());
	}

	/**
	 * Create a binder for every device of the registry that reports events.
	 * @param registry the devices
	 * @param tags tags added to every meter
	 */
	public RdmaEventMetrics(RdmaRegistry registry, Iterable<Tag> tags) {
		List<TrackedDevice> tracked = new ArrayList<>();
		for (ManagedDevice device : registry.devices()) {
			DeviceEventTracker tracker = device.events();
			if (tracker != null) {
				tracked.add(new TrackedDevice(device, tracker));
			}
		}
		this.devices = List.copyOf(tracked);
		this.tags = tags;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		synchronized (this.lock) {
			for (RdmaFlowMetrics.Registration registration : this.registrations) {
				if (registration.registry() == registry) {
					return;
				}
			}
			List<Meter> meters = new ArrayList<>();
			for (TrackedDevice tracked : this.devices) {
				ManagedDevice device = tracked.device();
				DeviceEventTracker tracker = tracked.tracker();
				Tags deviceTags = Tags.of(this.tags).and("device", device.name());
				for (DeviceEvent.Type type : DeviceEvent.Type.values()) {
					if (!type.isPortEvent()) {
						meters.add(eventCounter(tracker, deviceTags, 0, type).register(registry));
					}
				}
				for (int port : ports(device)) {
					for (DeviceEvent.Type type : DeviceEvent.Type.values()) {
						if (type.isPortEvent()) {
							meters.add(eventCounter(tracker, deviceTags, port, type).register(registry));
						}
					}
					meters.add(TimeGauge.builder(LAST_STATE_CHANGE, tracker, TimeUnit.MILLISECONDS, (t) -> {
						PortEventState state = t.portState(port);
						return (state != null) ? state.changedAt().toEpochMilli() : Double.NaN;
					})
						.description("When the port last became ACTIVE or left it, as the device's events reported")
						.tags(deviceTags.and("port", String.valueOf(port)))
						.register(registry));
				}
				meters.add(Gauge.builder(FAILED, tracker, (t) -> (t.failure() != null) ? 1 : 0)
					.description("Whether the RDMA device failed and is being reopened")
					.tags(deviceTags)
					.register(registry));
				meters.add(FunctionCounter.builder(REOPENS, tracker, DeviceEventTracker::reopens)
					.description("Times the RDMA device was reopened after a failure")
					.tags(deviceTags)
					.register(registry));
			}
			this.registrations.add(new RdmaFlowMetrics.Registration(registry, meters));
		}
	}

	private static FunctionCounter.Builder<DeviceEventTracker> eventCounter(DeviceEventTracker tracker, Tags tags,
			int port, DeviceEvent.Type type) {
		return FunctionCounter.builder(EVENTS, tracker, (t) -> t.count(port, type))
			.description("Asynchronous events of the RDMA port (device_fatal: of the device, port 0)")
			.tags(tags.and("port", String.valueOf(port)).and("event", type.tagValue()));
	}

	// 1 to phys_port_cnt; the ports of its sets alone if the query fails
	private static List<Integer> ports(ManagedDevice device) {
		int count;
		try {
			count = device.device().queryDevice().physicalPortCount();
		}
		catch (RuntimeException ex) {
			return device.ports();
		}
		List<Integer> ports = new ArrayList<>();
		for (int port = 1; port <= count; port++) {
			ports.add(port);
		}
		device.ports().stream().filter((port) -> !ports.contains(port)).forEach(ports::add);
		return ports;
	}

	/** Remove the meters this binder registered. */
	@Override
	public void close() {
		synchronized (this.lock) {
			for (RdmaFlowMetrics.Registration registration : this.registrations) {
				registration.meters().forEach(registration.registry()::remove);
			}
			this.registrations.clear();
		}
	}

	private record TrackedDevice(ManagedDevice device, DeviceEventTracker tracker) {
	}

}

package io.github.rdmacounters.simulated;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.rdmacounters.core.DeviceEvent;

/**
 * The asynchronous events of a simulated backend: which contexts are open on each device,
 * and which devices are gone. An event is delivered to every open context of its device,
 * as {@code ib_uverbs_async_handler()} queues it on every file of the device, on the
 * thread that raises it, before the raising call returns. A device that goes away gets
 * {@code IBV_EVENT_DEVICE_FATAL} on every open context, which is disassociated (its
 * queries, creations and reads fail with {@code EIO}, as the kernel's
 * {@code ib_uverbs_free_hw_resources()} leaves them), and is no longer listed or openable
 * until it is back.
 *
 * @author rdma-counters
 */
final class SimulatedEvents {

	private final Map<String, List<SimulatedDevice>> open = new ConcurrentHashMap<>();

	private final Set<String> gone = ConcurrentHashMap.newKeySet();

	private final Clock clock;

	SimulatedEvents(Clock clock) {
		this.clock = clock;
	}

	void opened(SimulatedDevice device) {
		this.open.computeIfAbsent(device.name(), (name) -> new CopyOnWriteArrayList<>()).add(device);
	}

	void closed(SimulatedDevice device) {
		List<SimulatedDevice> devices = this.open.get(device.name());
		if (devices != null) {
			devices.remove(device);
		}
	}

	boolean isGone(String device) {
		return this.gone.contains(device);
	}

	/**
	 * Deliver an event to every open context of a device.
	 * @param device the device name
	 * @param type the event
	 * @param port the port, 0 for a device event
	 * @return the number of contexts it was delivered to
	 */
	int raise(String device, DeviceEvent.Type type, int port) {
		DeviceEvent event = new DeviceEvent(device, type.isPortEvent() ? port : 0, type, this.clock.instant());
		int delivered = 0;
		for (SimulatedDevice context : this.open.getOrDefault(device, List.of())) {
			if (context.deliver(event)) {
				delivered++;
			}
		}
		return delivered;
	}

	/**
	 * Make a device go away: its open contexts are disassociated and get
	 * {@code IBV_EVENT_DEVICE_FATAL}.
	 * @param device the device name
	 * @return the number of contexts that got the event
	 */
	int remove(String device) {
		this.gone.add(device);
		List<SimulatedDevice> contexts = List.copyOf(this.open.getOrDefault(device, List.of()));
		contexts.forEach(SimulatedDevice::disassociate);
		DeviceEvent event = new DeviceEvent(device, 0, DeviceEvent.Type.DEVICE_FATAL, this.clock.instant());
		int delivered = 0;
		for (SimulatedDevice context : contexts) {
			if (context.deliverFatal(event)) {
				delivered++;
			}
		}
		return delivered;
	}

	void restore(String device) {
		this.gone.remove(device);
	}

}

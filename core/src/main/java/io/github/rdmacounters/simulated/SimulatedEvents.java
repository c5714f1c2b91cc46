package io.github.rdmacounters.simulated;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.rdmacounters.core.DeviceEvent;

/**
 * The asynchronous events of a simulated backend. An event goes to every open context of
 * its device on the raising thread, as {@code ib_uverbs_async_handler()} queues it on
 * every file of the device. A device that goes away gets {@code DEVICE_FATAL} on every
 * context, which is disassociated (calls fail with {@code EIO}, as
 * {@code ib_uverbs_free_hw_resources()} leaves them), and is not listed until it is back.
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

	// Returns the number of contexts it was delivered to
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

package io.github.rdmacounters.event;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.DeviceEventListener;
import io.github.rdmacounters.core.DeviceEventTracker;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * Turns the asynchronous events of the managed devices into Spring application events:
 * {@link RdmaPortStateChangedEvent} for {@code PORT_ACTIVE} and {@code PORT_ERR},
 * {@link RdmaDeviceFatalEvent} for {@code DEVICE_FATAL}. Optionally, a port that counter
 * sets count on going down moves readiness to {@link ReadinessState#REFUSING_TRAFFIC}
 * with an {@link AvailabilityChangeEvent}, and back to
 * {@link ReadinessState#ACCEPTING_TRAFFIC} once every such port is active again; liveness
 * is never touched. Events are published on the device's event thread. Stops listening on
 * {@link #close()}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaEventPublisher implements AutoCloseable {

	private final ApplicationEventPublisher publisher;

	private final boolean refuseTrafficOnPortDown;

	private final Object readinessLock = new Object();

	// guarded by readinessLock
	private final Set<String> downPorts = new HashSet<>();

	private final List<Runnable> removals = new ArrayList<>();

	/**
	 * Create a publisher and start listening to every device of the registry.
	 * @param registry the devices
	 * @param publisher where the events go
	 * @param refuseTrafficOnPortDown whether a port that counter sets need going down
	 * makes the application refuse traffic
	 */
	public RdmaEventPublisher(RdmaRegistry registry, ApplicationEventPublisher publisher,
			boolean refuseTrafficOnPortDown) {
		this.publisher = publisher;
		this.refuseTrafficOnPortDown = refuseTrafficOnPortDown;
		for (ManagedDevice device : registry.devices()) {
			DeviceEventTracker tracker = device.events();
			if (tracker != null) {
				DeviceEventListener listener = (event) -> onEvent(device, event);
				tracker.addListener(listener);
				this.removals.add(() -> tracker.removeListener(listener));
			}
		}
	}

	private void onEvent(ManagedDevice device, DeviceEvent event) {
		switch (event.type()) {
			case PORT_ACTIVE, PORT_ERR -> {
				this.publisher.publishEvent(new RdmaPortStateChangedEvent(device, event));
				if (this.refuseTrafficOnPortDown && isNeeded(device, event.port())) {
					updateReadiness(device.name() + ":" + event.port(), event.type() == DeviceEvent.Type.PORT_ERR);
				}
			}
			case DEVICE_FATAL -> this.publisher.publishEvent(new RdmaDeviceFatalEvent(device, event));
			default -> {
			}
		}
	}

	private static boolean isNeeded(ManagedDevice device, int port) {
		return device.counterSets().stream().mapToInt(CounterSet::port).anyMatch((p) -> p == port);
	}

	private void updateReadiness(String port, boolean down) {
		synchronized (this.readinessLock) {
			boolean wasDown = !this.downPorts.isEmpty();
			if (down) {
				this.downPorts.add(port);
			}
			else {
				this.downPorts.remove(port);
			}
			boolean isDown = !this.downPorts.isEmpty();
			if (isDown != wasDown) {
				AvailabilityChangeEvent.publish(this.publisher, this,
						isDown ? ReadinessState.REFUSING_TRAFFIC : ReadinessState.ACCEPTING_TRAFFIC);
			}
		}
	}

	/**
	 * Stop listening to the devices.
	 */
	@Override
	public void close() {
		this.removals.forEach(Runnable::run);
		this.removals.clear();
	}

}

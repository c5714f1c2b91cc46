package io.github.rdmacounters.sample;

import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.event.RdmaPortStateChangedEvent;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * Makes the simulated link flap now and then: every {@code sample.link-flap.interval-ms}
 * the port goes down (the simulator raises {@code IBV_EVENT_PORT_ERR}) and comes back
 * {@code sample.link-flap.down-ms} later ({@code IBV_EVENT_PORT_ACTIVE}), so health,
 * {@code /actuator/rdma} and {@code rdma_port_events_total} show what events do. Also
 * listens to the resulting {@link RdmaPortStateChangedEvent}s, as an application would.
 * Active with {@code sample.link-flap.enabled=true} on the simulated backend.
 *
 * @author rdma-counters
 */
@Component
@ConditionalOnBooleanProperty("sample.link-flap.enabled")
@ConditionalOnProperty(name = "rdma.backend", havingValue = "simulated")
@ConditionalOnBooleanProperty(name = "rdma.enabled", matchIfMissing = true)
public class SimulatedLinkFlapper {

	private static final Log logger = LogFactory.getLog(SimulatedLinkFlapper.class);

	private final SimulatedBackend backend;

	private final String device;

	private final int port;

	private final long downMillis;

	private final TaskScheduler scheduler;

	/**
	 * Create a flapper.
	 * @param backend the backend, which must be the simulated one
	 * @param device the simulated device name
	 * @param port the port that flaps
	 * @param downMillis how long the port stays down
	 * @param scheduler the scheduler that brings the port back up, so that the down time
	 * holds no scheduler thread (the traffic generator runs on the same one)
	 */
	public SimulatedLinkFlapper(RdmaBackend backend, @Value("${sample.link-flap.device:sim_mlx5_0}") String device,
			@Value("${sample.link-flap.port:1}") int port, @Value("${sample.link-flap.down-ms:5000}") long downMillis,
			TaskScheduler scheduler) {
		if (!(backend instanceof SimulatedBackend simulated)) {
			throw new IllegalStateException("sample.link-flap.enabled needs rdma.backend=simulated, not " + backend);
		}
		this.backend = simulated;
		this.device = device;
		this.port = port;
		this.downMillis = downMillis;
		this.scheduler = scheduler;
	}

	/**
	 * Take the link down, and have it brought back up after the down time.
	 */
	@Scheduled(initialDelayString = "${sample.link-flap.interval-ms:60000}",
			fixedRateString = "${sample.link-flap.interval-ms:60000}")
	public void flap() {
		this.backend.setPortState(this.device, this.port, PortState.DOWN);
		this.scheduler.schedule(() -> this.backend.setPortState(this.device, this.port, PortState.ACTIVE),
				Instant.now().plusMillis(this.downMillis));
	}

	/**
	 * React to a port state change, as an application that stops taking RDMA work would.
	 * @param event the event
	 */
	@EventListener
	public void onPortStateChanged(RdmaPortStateChangedEvent event) {
		logger.info("Sample application: " + event.getDevice().name() + " port " + event.getPort() + " is now "
				+ event.getState() + ((event.isActive()) ? ", taking RDMA work again" : ", pausing RDMA work"));
	}

}

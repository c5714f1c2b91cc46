package io.github.rdmacounters.sample;

import java.time.Instant;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * Congests the simulated RoCE port now and then: every
 * {@code sample.congestion.interval-ms} the port is congested for
 * {@code sample.congestion.congested-ms}, so the RoCE traffic of
 * {@link SimulatedTrafficGenerator} makes it send and meet PFC pause frames on priority 3
 * ({@code rdma_ethtool_pause_frames_total}, the "Host: PFC and drops" row of the board).
 * Active with {@code sample.congestion.enabled=true} on the simulated backend.
 *
 * @author rdma-counters
 */
@Component
@ConditionalOnBooleanProperty("sample.congestion.enabled")
@ConditionalOnProperty(name = "rdma.backend", havingValue = "simulated")
@ConditionalOnBooleanProperty(name = "rdma.enabled", matchIfMissing = true)
public class SimulatedCongestion {

	private final SimulatedBackend backend;

	private final String device;

	private final int port;

	private final long congestedMillis;

	private final TaskScheduler scheduler;

	/**
	 * Create the congestion.
	 * @param backend the backend, which must be the simulated one
	 * @param device the simulated device name
	 * @param port the port that is congested
	 * @param congestedMillis how long the port stays congested
	 * @param scheduler the scheduler that ends the congestion
	 */
	public SimulatedCongestion(RdmaBackend backend, @Value("${sample.congestion.device:sim_mlx5_0}") String device,
			@Value("${sample.congestion.port:1}") int port,
			@Value("${sample.congestion.congested-ms:10000}") long congestedMillis, TaskScheduler scheduler) {
		if (!(backend instanceof SimulatedBackend simulated)) {
			throw new IllegalStateException("sample.congestion.enabled needs rdma.backend=simulated, not " + backend);
		}
		this.backend = simulated;
		this.device = device;
		this.port = port;
		this.congestedMillis = congestedMillis;
		this.scheduler = scheduler;
	}

	/**
	 * Congest the port, and have the congestion end after the congested time.
	 */
	@Scheduled(initialDelayString = "${sample.congestion.initial-delay-ms:5000}",
			fixedRateString = "${sample.congestion.interval-ms:30000}")
	public void congest() {
		this.backend.setCongested(this.device, this.port, true);
		this.scheduler.schedule(() -> this.backend.setCongested(this.device, this.port, false),
				Instant.now().plusMillis(this.congestedMillis));
	}

}

package io.github.rdmacounters.sample;

import java.net.InetAddress;
import java.net.UnknownHostException;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * An observed operation that moves simulated traffic over one counter set: a "checkpoint"
 * that sends {@link #PACKETS} NVMe/TCP packets of {@link #SIZE} bytes to the nvme-tcp
 * set's flow inside the observation {@code sample.checkpoint}, and receives
 * {@link #RDMA_WRITES} RoCEv2 RDMA WRITEs from a peer replicating it, which no flow
 * counter sees. With {@code rdma.observations} naming that observation and set, each
 * checkpoint records its packets and bytes as {@code rdma.observation.packets} and
 * {@code rdma.observation.bytes} (and on its span with tracing on), and with
 * {@code rdma.observations.port-counters=rx_write_requests} the writes as
 * {@code rdma.observation.port.delta}. The traffic generator's NVMe/TCP packets during a
 * checkpoint count too: a counter counts all the traffic that matches it. Only active on
 * the simulated backend with {@code rdma.observations.enabled=true}.
 *
 * @author rdma-counters
 */
@Component
@ConditionalOnProperty(name = "rdma.backend", havingValue = "simulated")
@ConditionalOnBooleanProperty(name = "rdma.observations.enabled")
public class SimulatedCheckpoint {

	/** The name of the observation. */
	public static final String OBSERVATION = "sample.checkpoint";

	/** The packets one checkpoint sends. */
	public static final int PACKETS = 64;

	/** The frame size of each packet, in bytes. */
	public static final int SIZE = 4096;

	/** The RDMA WRITEs one checkpoint receives. */
	public static final int RDMA_WRITES = 16;

	private final SimulatedBackend backend;

	private final ObservationRegistry observations;

	private final String device;

	private final int port;

	private final InetAddress client;

	private final InetAddress server;

	/**
	 * Create the checkpoint.
	 * @param backend the backend, which must be the simulated one
	 * @param observations the observation registry
	 * @param device the simulated device of the nvme-tcp set
	 * @param port its port
	 * @throws UnknownHostException never: the addresses are literals
	 */
	public SimulatedCheckpoint(RdmaBackend backend, ObservationRegistry observations,
			@Value("${sample.traffic.device:sim_mlx5_0}") String device, @Value("${sample.traffic.port:1}") int port)
			throws UnknownHostException {
		if (!(backend instanceof SimulatedBackend simulated)) {
			throw new IllegalStateException("rdma.backend is simulated but the RdmaBackend bean is " + backend);
		}
		this.backend = simulated;
		this.observations = observations;
		this.device = device;
		this.port = port;
		this.client = InetAddress.getByName("192.0.2.30");
		this.server = InetAddress.getByName("192.0.2.20");
	}

	/**
	 * Run one checkpoint inside its observation, the first one interval after the start
	 * (not at once, where it would overlap a checkpoint that a test runs itself).
	 */
	@Scheduled(fixedRateString = "${sample.checkpoint.interval-ms:10000}",
			initialDelayString = "${sample.checkpoint.interval-ms:10000}")
	public void checkpoint() {
		Observation.createNotStarted(OBSERVATION, this.observations).observe(() -> {
			for (int i = 0; i < PACKETS; i++) {
				this.backend.deliver(this.device, this.port, Packet.tcp(this.client, 50000, this.server, 4420, SIZE));
			}
			for (int i = 0; i < RDMA_WRITES; i++) {
				this.backend.deliverRoce(this.device, this.port,
						Packet.udp(this.client, 49152, this.server, Packet.ROCE_V2_PORT, SIZE), RoceOperation.WRITE);
			}
		});
	}

}

package io.github.rdmacounters.sample;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

/**
 * Makes the numbers move on the simulated device: every tick it delivers a mix of
 * NVMe/TCP (TCP 4420), HTTPS (TCP 443) and DNS (UDP 53) packets to the configured port,
 * which the flows see, and RoCEv2 writes and reads (UDP 4791), which the RoCE path takes
 * before steering: they move the port counters and {@code hw_counters} only, as on mlx5.
 * It also sends a few TCP and RoCEv2 packets so the transmit port counters and the
 * netdev's transmitted RDMA bytes move. Only active with {@code rdma.backend=simulated};
 * on real hardware the real traffic does this.
 *
 * @author rdma-counters
 */
@Component
@ConditionalOnProperty(name = "rdma.backend", havingValue = "simulated")
@ConditionalOnBooleanProperty(name = "rdma.enabled", matchIfMissing = true)
public class SimulatedTrafficGenerator {

	private final SimulatedBackend backend;

	private final String device;

	private final int port;

	private final InetAddress client;

	private final InetAddress server;

	/**
	 * Create a generator.
	 * @param backend the backend, which must be the simulated one
	 * @param device the simulated device name
	 * @param port the port to deliver to
	 * @throws UnknownHostException never: the addresses are literals
	 */
	public SimulatedTrafficGenerator(RdmaBackend backend, @Value("${sample.traffic.device:sim_mlx5_0}") String device,
			@Value("${sample.traffic.port:1}") int port) throws UnknownHostException {
		if (!(backend instanceof SimulatedBackend simulated)) {
			throw new IllegalStateException("rdma.backend is simulated but the RdmaBackend bean is " + backend);
		}
		this.backend = simulated;
		this.device = device;
		this.port = port;
		this.client = InetAddress.getByName("192.0.2.10");
		this.server = InetAddress.getByName("192.0.2.20");
	}

	/**
	 * Deliver one tick of traffic to the configured port, and a lighter mix to every
	 * other port of every simulated device, so that a multi-NIC host shows traffic on
	 * several devices.
	 */
	@Scheduled(fixedRateString = "${sample.traffic.interval-ms:500}")
	public void generate() {
		generate(this.device, this.port);
		for (SimulatedDeviceSpec spec : this.backend.specs()) {
			for (int port = 1; port <= spec.portCount(); port++) {
				if (!spec.name().equals(this.device) || port != this.port) {
					generate(spec.name(), port);
				}
			}
		}
	}

	private void generate(String device, int port) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = random.nextInt(20, 60); i > 0; i--) {
			receive(device, port,
					Packet.tcp(this.client, random.nextInt(49152, 65536), this.server, 4420, random.nextInt(64, 9001)));
		}
		for (int i = random.nextInt(20, 60); i > 0; i--) {
			RoceOperation operation = (random.nextInt(4) == 0) ? RoceOperation.READ : RoceOperation.WRITE;
			this.backend.deliverRoce(device, port, Packet.udp(this.client, random.nextInt(49152, 65536), this.server,
					Packet.ROCE_V2_PORT, random.nextInt(1024, 4159)), operation);
		}
		for (int i = random.nextInt(5, 15); i > 0; i--) {
			receive(device, port,
					Packet.tcp(this.client, random.nextInt(49152, 65536), this.server, 443, random.nextInt(64, 1515)));
		}
		for (int i = random.nextInt(1, 5); i > 0; i--) {
			receive(device, port,
					Packet.udp(this.client, random.nextInt(49152, 65536), this.server, 53, random.nextInt(80, 300)));
		}
		for (int i = random.nextInt(5, 15); i > 0; i--) {
			this.backend.transmit(device, port,
					Packet.tcp(this.server, 443, this.client, random.nextInt(49152, 65536), random.nextInt(64, 1515)));
		}
		for (int i = random.nextInt(5, 15); i > 0; i--) {
			// RoCEv2 responses: the vport's transmitted RDMA bytes, paused while
			// congested
			this.backend.transmit(device, port, Packet.udp(this.server, random.nextInt(49152, 65536), this.client,
					Packet.ROCE_V2_PORT, random.nextInt(1024, 4159)));
		}
	}

	private void receive(String device, int port, Packet packet) {
		this.backend.deliver(device, port, packet);
	}

}

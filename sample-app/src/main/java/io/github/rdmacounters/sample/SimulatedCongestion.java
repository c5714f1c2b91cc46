package io.github.rdmacounters.sample;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * Makes the congestion counters move on the simulated device: every tick the port sends
 * RoCE writes, and for a third of every cycle the port is congested, so the optional
 * counters (ECN marks, CNPs sent and received, RDMA bytes) and the PFC pause statistics
 * move as on a RoCE fabric under incast. Only active with {@code rdma.backend=simulated}.
 *
 * @author rdma-counters
 */
@Component
@ConditionalOnProperty(name = "rdma.backend", havingValue = "simulated")
@ConditionalOnBooleanProperty(name = "rdma.enabled", matchIfMissing = true)
public class SimulatedCongestion {

	private final SimulatedBackend backend;

	private final String device;

	private final int port;

	private final int cycle;

	private final Packet write;

	private final AtomicLong ticks = new AtomicLong();

	/**
	 * Create the congestion.
	 * @param backend the backend, which must be the simulated one
	 * @param device the simulated device name
	 * @param port the congested port
	 * @param cycle the ticks of one cycle, a third of which are congested
	 * @throws UnknownHostException never: the addresses are literals
	 */
	public SimulatedCongestion(RdmaBackend backend, @Value("${sample.traffic.device:sim_mlx5_0}") String device,
			@Value("${sample.traffic.port:1}") int port, @Value("${sample.congestion.cycle-ticks:30}") int cycle)
			throws UnknownHostException {
		if (!(backend instanceof SimulatedBackend simulated)) {
			throw new IllegalStateException("rdma.backend is simulated but the RdmaBackend bean is " + backend);
		}
		this.backend = simulated;
		this.device = device;
		this.port = port;
		this.cycle = Math.max(3, cycle);
		this.write = Packet.udp(InetAddress.getByName("192.0.2.20"), 49152, InetAddress.getByName("192.0.2.10"),
				Packet.ROCE_V2_PORT, 4096);
	}

	/**
	 * Send one tick of RoCE writes, congested in the first third of each cycle.
	 */
	@Scheduled(fixedRateString = "${sample.traffic.interval-ms:500}")
	public void tick() {
		long tick = this.ticks.getAndIncrement();
		this.backend.setCongested(this.device, this.port, tick % this.cycle < this.cycle / 3);
		for (int i = 0; i < 20; i++) {
			this.backend.transmit(this.device, this.port, this.write);
		}
	}

}

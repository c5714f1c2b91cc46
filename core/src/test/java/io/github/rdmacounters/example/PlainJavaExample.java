package io.github.rdmacounters.example;

import java.net.InetAddress;
import java.time.Duration;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetDefinition;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.DeviceDefinition;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * The README's plain Java example: open the simulated device with one counter set,
 * deliver traffic and read the counters, with nothing of Spring on the class path.
 *
 * @author rdma-counters
 */
public final class PlainJavaExample {

	private PlainJavaExample() {
	}

	/**
	 * Run the example.
	 * @param args not used
	 * @throws Exception if an address literal cannot be parsed
	 */
	public static void main(String[] args) throws Exception {
		// README: plain-java
		// new NativeBackend() on a host with an mlx5 NIC
		SimulatedBackend backend = SimulatedBackend.withDefaultDevice();
		ManagedDeviceFactory factory = ManagedDeviceFactory.of(backend, Duration.ofSeconds(1));
		FlowSpec nvmeTcp = FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).build();
		DeviceDefinition definition = DeviceDefinition.of("sim_mlx5_0", CounterSetDefinition.of("nvme-tcp", nvmeTcp));
		try (ManagedDevice device = factory.create(definition, true)) {
			InetAddress host = InetAddress.getByName("192.0.2.10");
			InetAddress target = InetAddress.getByName("192.0.2.20");
			backend.deliver("sim_mlx5_0", 1, Packet.tcp(host, 50000, target, 4420, 4096));
			// HTTPS, not counted by the NVMe/TCP flow
			backend.deliver("sim_mlx5_0", 1, Packet.tcp(host, 50000, target, 443, 1500));
			CounterSet set = device.counterSets().get(0);
			CounterSetReading reading = set.read();
			System.out.println(set.name() + ": " + reading.value(CounterType.PACKETS) + " packets, "
					+ reading.value(CounterType.BYTES) + " bytes");
		}
		// README: end
	}

}

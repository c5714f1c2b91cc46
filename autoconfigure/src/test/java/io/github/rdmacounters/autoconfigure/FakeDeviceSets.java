package io.github.rdmacounters.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.testsupport.FakeVerbs;

/**
 * The sets of {@code rdma.devices} that several tests start on the fake libibverbs:
 * {@code vxlan} on {@code mlx5_0} and {@code mlx5_1}, {@code https} on {@code mlx5_1},
 * and {@code nvme} on {@code mlx5_9}, a device the fake does not have, with
 * {@code fail-on-unavailable=false}; the fake's {@code mlx5_0} and {@code mlx5_1}, whose
 * port 1 is down so that its sets are on port 2; and traffic for them.
 *
 * @author rdma-counters
 */
final class FakeDeviceSets {

	private FakeDeviceSets() {
	}

	/**
	 * The properties: the fake's library and the sets.
	 * @param fake the fake libibverbs
	 * @return the properties
	 */
	static String[] properties(FakeVerbs fake) {
		return new String[] { "rdma.native.library=" + fake.libraryPath(),
				"rdma.devices.mlx5_0.counter-sets.vxlan.flow.protocol=udp",
				"rdma.devices.mlx5_0.counter-sets.vxlan.flow.destination-port=4789",
				"rdma.devices.mlx5_1.counter-sets.vxlan.flow.protocol=udp",
				"rdma.devices.mlx5_1.counter-sets.vxlan.flow.destination-port=4789",
				"rdma.devices.mlx5_1.counter-sets.https.flow.protocol=tcp",
				"rdma.devices.mlx5_1.counter-sets.https.flow.destination-port=443",
				"rdma.devices.mlx5_9.fail-on-unavailable=false",
				"rdma.devices.mlx5_9.counter-sets.nvme.flow.protocol=tcp",
				"rdma.devices.mlx5_9.counter-sets.nvme.flow.destination-port=4420" };
	}

	/**
	 * Add {@code mlx5_0} (one port) and {@code mlx5_1} (two ports, port 1 down) to the
	 * fake.
	 * @param fake the fake libibverbs
	 */
	static void addDevices(FakeVerbs fake) {
		fake.device("mlx5_0").add();
		fake.device("mlx5_1").ports(2).portState(1, PortState.DOWN).add();
	}

	/**
	 * Deliver one VXLAN packet of 1024 bytes to {@code mlx5_0} port 1, and two of 512
	 * bytes and one HTTPS packet of 100 bytes to {@code mlx5_1} port 2.
	 * @param fake the fake libibverbs
	 * @throws UnknownHostException never, the addresses are literal
	 */
	static void deliverTraffic(FakeVerbs fake) throws UnknownHostException {
		InetAddress a = InetAddress.getByName("192.168.1.1");
		InetAddress b = InetAddress.getByName("192.168.1.2");
		fake.deliver("mlx5_0", 1, Packet.udp(a, 40000, b, 4789, 1024));
		fake.deliver("mlx5_1", 2, Packet.udp(a, 40000, b, 4789, 512));
		fake.deliver("mlx5_1", 2, Packet.udp(a, 40000, b, 4789, 512));
		fake.deliver("mlx5_1", 2, Packet.tcp(a, 40000, b, 443, 100));
	}

}

package io.github.rdmacounters.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;

/**
 * The counter sets of {@code rdma.counter-sets} that several tests start on the fake
 * libibverbs: {@code vxlan0} on {@code mlx5_0}, {@code vxlan1} and {@code https} on
 * {@code mlx5_1}, and {@code nvme} on {@code mlx5_9}, a device the fake does not have,
 * with {@code rdma.devices.mlx5_9.fail-on-unavailable=false}; the fake's {@code mlx5_0}
 * and {@code mlx5_1}, whose port 1 is down so that its sets are on port 2; their sysfs
 * directories with a network interface each; and traffic for them.
 *
 * @author rdma-counters
 */
final class FakeDeviceSets {

	/** The network interface of {@code mlx5_0} in {@link #sysfs(Path)}. */
	static final String MLX5_0_NETDEV = "ens1f0np0";

	/** The network interface of {@code mlx5_1} in {@link #sysfs(Path)}. */
	static final String MLX5_1_NETDEV = "ens2f0np0";

	private FakeDeviceSets() {
	}

	/**
	 * The properties: the fake's library and the sets.
	 * @param fake the fake libibverbs
	 * @return the properties
	 */
	static String[] properties(FakeVerbs fake) {
		return new String[] { "rdma.native.library=" + fake.libraryPath(), "rdma.counter-sets.vxlan0.device=mlx5_0",
				"rdma.counter-sets.vxlan0.flow.protocol=udp", "rdma.counter-sets.vxlan0.flow.destination-port=4789",
				"rdma.counter-sets.vxlan1.device=mlx5_1", "rdma.counter-sets.vxlan1.flow.protocol=udp",
				"rdma.counter-sets.vxlan1.flow.destination-port=4789", "rdma.counter-sets.https.device=mlx5_1",
				"rdma.counter-sets.https.flow.protocol=tcp", "rdma.counter-sets.https.flow.destination-port=443",
				"rdma.devices.mlx5_9.fail-on-unavailable=false", "rdma.counter-sets.nvme.device=mlx5_9",
				"rdma.counter-sets.nvme.flow.protocol=tcp", "rdma.counter-sets.nvme.flow.destination-port=4420" };
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
	 * Build the sysfs of the fake's two devices: {@code mlx5_0} with
	 * {@value #MLX5_0_NETDEV} and {@code mlx5_1} with {@value #MLX5_1_NETDEV} under
	 * {@code <dev>/device/net/}, both from the ConnectX-6 Dx RoCE fixture (two ports).
	 * @param temp the directory to build it in
	 * @return the host; {@link HostSysfs#root()} is the {@code sysfs-root}
	 */
	static HostSysfs sysfs(Path temp) {
		return HostSysfs.empty(temp)
			.addDevice("mlx5-roce", "mlx5_1", "mlx5_0", "0000:41:00.0", MLX5_0_NETDEV, null)
			.addDevice("mlx5-roce", "mlx5_1", "mlx5_1", "0000:42:00.0", MLX5_1_NETDEV, null);
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

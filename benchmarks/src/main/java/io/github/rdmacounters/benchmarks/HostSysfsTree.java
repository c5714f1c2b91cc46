package io.github.rdmacounters.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import io.github.rdmacounters.sysfs.SysfsPortCountersSource;

/**
 * Writes the sysfs of a host with mlx5-like RDMA devices (8 unless told) of 2 ports each,
 * in the shapes the kernel gives it: {@code class/infiniband/mlx5_<n>} is a link to
 * {@code devices/pci0000:00/<pci>/infiniband/mlx5_<n>}, whose {@code device} link leads
 * back to the PCI function with {@code net/<ifname>}. Per device 4 information files; per
 * port {@code state}, {@code phys_state}, {@code rate}, {@code link_layer}, 21 IB PMA
 * {@code counters/} and 29 mlx5 {@code hw_counters/} files (one of them the
 * {@code lifespan} setting). The content is the same on every run, so the benchmark and
 * node_exporter read identical trees.
 * <p>
 * Run as a program to write a tree for node_exporter:
 * {@code java ... HostSysfsTree DIR [DEVICES]} writes {@code DIR/class/infiniband}.
 *
 * @author rdma-counters
 */
public final class HostSysfsTree {

	/** Devices on the host unless told otherwise. */
	public static final int DEVICES = 8;

	/** Ports per device. */
	public static final int PORTS = 2;

	/** IB PMA counters per port, as mlx5 shows them in {@code counters/}. */
	public static final List<String> PMA_COUNTERS = List.of("VL15_dropped", "excessive_buffer_overrun_errors",
			"link_downed", "link_error_recovery", "local_link_integrity_errors", "multicast_rcv_packets",
			"multicast_xmit_packets", "port_rcv_constraint_errors", "port_rcv_data", "port_rcv_errors",
			"port_rcv_packets", "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors",
			"port_xmit_constraint_errors", "port_xmit_data", "port_xmit_discards", "port_xmit_packets",
			"port_xmit_wait", "symbol_error", "unicast_rcv_packets", "unicast_xmit_packets");

	/** mlx5 {@code hw_counters/} files per port, {@code lifespan} included. */
	public static final List<String> HW_COUNTERS = List.of("duplicate_request", "implied_nak_seq_err", "lifespan",
			"local_ack_timeout_err", "np_cnp_sent", "np_ecn_marked_roce_packets", "out_of_buffer", "out_of_sequence",
			"packet_seq_err", "req_cqe_error", "req_cqe_flush_error", "req_remote_access_errors",
			"req_remote_invalid_request", "resp_cqe_error", "resp_cqe_flush_error", "resp_local_length_error",
			"resp_remote_access_errors", "rnr_nak_retry_err", "roce_adp_retrans", "roce_adp_retrans_to",
			"roce_slow_restart", "roce_slow_restart_cnps", "roce_slow_restart_trans", "rp_cnp_handled",
			"rp_cnp_ignored", "rx_atomic_requests", "rx_icrc_encapsulated", "rx_read_requests", "rx_write_requests");

	private HostSysfsTree() {
	}

	/**
	 * Write the tree of {@link #DEVICES} devices.
	 * @param sys the {@code /sys} equivalent; created if missing
	 * @return the {@code class/infiniband} directory
	 * @throws IOException if a file cannot be written
	 */
	public static Path write(Path sys) throws IOException {
		return write(sys, DEVICES);
	}

	/**
	 * Write the tree.
	 * @param sys the {@code /sys} equivalent; created if missing
	 * @param devices how many devices
	 * @return the {@code class/infiniband} directory
	 * @throws IOException if a file cannot be written
	 */
	public static Path write(Path sys, int devices) throws IOException {
		Path root = sys.resolve("class/infiniband");
		Files.createDirectories(root);
		long value = 1_000_000_007L;
		for (int index = 0; index < devices; index++) {
			String name = "mlx5_" + index;
			String pci = String.format(Locale.ROOT, "0000:%02x:00.0", 0x10 + index);
			Path function = sys.resolve("devices/pci0000:00/" + pci);
			Files.createDirectories(function.resolve("net/ibp" + (0x10 + index) + "s0"));
			Path device = function.resolve("infiniband/" + name);
			write(device.resolve("fw_ver"), "20.31.1014");
			write(device.resolve("board_id"), "MT_0000000222");
			write(device.resolve("hca_type"), "MT4123");
			write(device.resolve("node_guid"), String.format(Locale.ROOT, "b859:9f03:00d4:%04x", index));
			Files.createSymbolicLink(device.resolve("device"), Paths.get("../../../" + pci));
			Files.createSymbolicLink(root.resolve(name),
					Paths.get("../../devices/pci0000:00/" + pci + "/infiniband/" + name));
			for (int port = 1; port <= PORTS; port++) {
				value = writePort(device.resolve("ports/" + port), value, "200 Gb/sec (4X HDR)", "InfiniBand");
			}
		}
		return root;
	}

	/**
	 * Write the files of an active port: its state, rate and link layer, the
	 * {@link #PMA_COUNTERS} in {@code counters/} and the {@link #HW_COUNTERS} in
	 * {@code hw_counters/}.
	 * @param dir the port directory, {@code ports/<n>} of a device
	 * @param value the value before the first counter's
	 * @param rate the {@code rate} file's content
	 * @param linkLayer the {@code link_layer} file's content
	 * @return the last counter value written, for the next port
	 * @throws IOException if a file cannot be written
	 */
	static long writePort(Path dir, long value, String rate, String linkLayer) throws IOException {
		write(dir.resolve("state"), "4: ACTIVE");
		write(dir.resolve("phys_state"), "5: LinkUp");
		write(dir.resolve("rate"), rate);
		write(dir.resolve("link_layer"), linkLayer);
		long next = value;
		for (String counter : PMA_COUNTERS) {
			write(dir.resolve("counters/" + counter), Long.toString(next += 7_919));
		}
		for (String counter : HW_COUNTERS) {
			write(dir.resolve("hw_counters/" + counter), Long.toString(next % 1_000));
		}
		return next;
	}

	/**
	 * Return how many files of a port written by {@link #writePort} are read as counters:
	 * all but the settings among them ({@code lifespan},
	 * {@link SysfsPortCountersSource#NON_COUNTERS}).
	 * @return the counters of a port
	 */
	static int countersPerPort() {
		return PMA_COUNTERS.size() + (int) HW_COUNTERS.stream()
			.filter((name) -> !SysfsPortCountersSource.NON_COUNTERS.contains(name))
			.count();
	}

	private static void write(Path file, String content) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, content + "\n");
	}

	/**
	 * Delete a tree written by {@link #write(Path)}.
	 * @param sys the directory given to {@link #write(Path)}
	 * @throws IOException if it cannot be deleted
	 */
	public static void delete(Path sys) throws IOException {
		List<Path> paths = new ArrayList<>();
		try (Stream<Path> walk = Files.walk(sys)) {
			walk.sorted(Comparator.reverseOrder()).forEach(paths::add);
		}
		for (Path path : paths) {
			Files.delete(path);
		}
	}

	/**
	 * Write a tree for another program to read.
	 * @param args the {@code /sys} equivalent to write into, and optionally how many
	 * devices
	 * @throws IOException if a file cannot be written
	 */
	public static void main(String[] args) throws IOException {
		if (args.length < 1 || args.length > 2) {
			System.err.println("Usage: HostSysfsTree <dir> [devices]: writes <dir>/class/infiniband with "
					+ "that many devices (default " + DEVICES + ") of " + PORTS + " ports");
			System.exit(2);
		}
		int devices = (args.length == 2) ? Integer.parseInt(args[1]) : DEVICES;
		System.out.println(write(Paths.get(args[0]), devices));
	}

}

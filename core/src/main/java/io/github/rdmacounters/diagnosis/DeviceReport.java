package io.github.rdmacounters.diagnosis;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One RDMA device: where it sits, what verbs say of it, its ports and findings.
 *
 * @param name the device name, e.g. {@code mlx5_0}
 * @param nodeType sysfs {@code node_type}, e.g. {@code 1: CA}, or {@code null}
 * @param driver the kernel driver of its PCI function, e.g. {@code mlx5_core}, or
 * {@code null} if unknown
 * @param hcaType sysfs {@code hca_type}, or {@code null}
 * @param boardId sysfs {@code board_id}, or {@code null}
 * @param firmware sysfs {@code fw_ver}, or {@code null}
 * @param netdevs the network interfaces of its PCI function
 * @param pciAddress its PCI address, or {@code null}
 * @param virtualFunction whether it is an SR-IOV virtual function
 * @param physicalFunction the PCI address of a virtual function's physical function, or
 * {@code null}
 * @param verbs the device as the verbs backend sees it
 * @param ethtool whether the statistics of each network interface can be read
 * @param ports the ports
 * @param findings what was found about this device
 * @since 0.1.0
 */
public record DeviceReport(String name, @Nullable String nodeType, @Nullable String driver, @Nullable String hcaType,
		@Nullable String boardId, @Nullable String firmware, List<String> netdevs, @Nullable String pciAddress,
		boolean virtualFunction, @Nullable String physicalFunction, ContextReport verbs, List<EthtoolReport> ethtool,
		List<PortReport> ports, List<Finding> findings) {

	public DeviceReport {
		netdevs = List.copyOf(netdevs);
		ethtool = List.copyOf(ethtool);
		ports = List.copyOf(ports);
		findings = List.copyOf(findings);
	}

	/**
	 * Return a port by number.
	 * @param port the port number
	 * @return the port, or {@code null}
	 */
	public @Nullable PortReport port(int port) {
		return this.ports.stream().filter((candidate) -> candidate.port() == port).findFirst().orElse(null);
	}

}

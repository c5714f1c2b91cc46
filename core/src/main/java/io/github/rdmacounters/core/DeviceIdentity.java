package io.github.rdmacounters.core;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Where an RDMA device sits on the host, read once when the device is found from
 * {@code /sys/class/infiniband/<dev>/device}, the PCI function's directory.
 *
 * @param netdevs the network interfaces of the PCI function ({@code device/net/*}),
 * sorted
 * @param pciAddress the PCI address, e.g. {@code 0000:08:00.0}, or {@code null} for a
 * software device such as {@code rxe}
 * @param virtualFunction whether {@code device/physfn} exists (SR-IOV)
 * @param physicalFunction the PCI address of a virtual function's physical function, or
 * {@code null}
 * @param netdevPorts the port of each netdev that a port of a device with several ports
 * names as the netdev of its RoCE GID 0 ({@code ports/<p>/gid_attrs/ndevs/0}); empty for
 * a device with one port, whose netdevs are all its port's
 * @since 0.1.0
 */
public record DeviceIdentity(List<String> netdevs, @Nullable String pciAddress, boolean virtualFunction,
		@Nullable String physicalFunction, Map<String, Integer> netdevPorts) {

	/** The identity of a device whose {@code device} link cannot be read. */
	public static final DeviceIdentity UNKNOWN = new DeviceIdentity(List.of(), null, false, null);

	public DeviceIdentity {
		netdevs = List.copyOf(netdevs);
		netdevPorts = Map.copyOf(netdevPorts);
	}

	/**
	 * Create an identity without netdev ports.
	 * @param netdevs the network interfaces
	 * @param pciAddress the PCI address, or {@code null}
	 * @param virtualFunction whether it is a virtual function
	 * @param physicalFunction the physical function's PCI address, or {@code null}
	 */
	public DeviceIdentity(List<String> netdevs, @Nullable String pciAddress, boolean virtualFunction,
			@Nullable String physicalFunction) {
		this(netdevs, pciAddress, virtualFunction, physicalFunction, Map.of());
	}

}

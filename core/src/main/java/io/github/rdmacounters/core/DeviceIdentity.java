package io.github.rdmacounters.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Where an RDMA device sits on the host: its network interfaces and PCI function, read
 * once when the device is found ({@code /sys/class/infiniband/<dev>/device}, a link to
 * the PCI function's directory, with {@code net/<ifname>} and, for an SR-IOV virtual
 * function, {@code physfn}).
 *
 * @param netdevs the network interfaces of the PCI function ({@code device/net/*}),
 * sorted; empty if it has none or they cannot be listed
 * @param pciAddress the PCI address, e.g. {@code 0000:08:00.0}, or {@code null} if the
 * device has no PCI function (software devices such as {@code rxe})
 * @param virtualFunction whether the function is an SR-IOV virtual function
 * ({@code device/physfn} exists)
 * @param physicalFunction the PCI address of the physical function of a virtual function,
 * or {@code null}
 * @author rdma-counters
 * @since 0.1.0
 */
public record DeviceIdentity(List<String> netdevs, @Nullable String pciAddress, boolean virtualFunction,
		@Nullable String physicalFunction) {

	/**
	 * The identity of a device whose {@code device} link cannot be read.
	 */
	public static final DeviceIdentity UNKNOWN = new DeviceIdentity(List.of(), null, false, null);

	/**
	 * Create an identity.
	 * @param netdevs the network interfaces
	 * @param pciAddress the PCI address, or {@code null}
	 * @param virtualFunction whether it is a virtual function
	 * @param physicalFunction the physical function's address, or {@code null}
	 */
	public DeviceIdentity {
		netdevs = List.copyOf(netdevs);
	}

}

/**
 * The driver statistics of the network interfaces of RDMA devices, as {@code ethtool -S}
 * shows them, read with {@code ioctl(SIOCETHTOOL)}.
 * <p>
 * The words: a <em>netdev</em> is a network interface of an RDMA device's PCI function
 * ({@code /sys/class/infiniband/<device>/device/net/*}); its <em>statistics</em> are the
 * driver's {@code ETH_SS_STATS} string set, names and unsigned 64-bit values.
 */
@NullMarked
package io.github.rdmacounters.ethtool;

import org.jspecify.annotations.NullMarked;

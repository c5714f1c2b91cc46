package io.github.rdmacounters.netlink;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The optional counters of every port of every device RDMA netlink shows, read together.
 *
 * @param ports the ports that have optional counters, by device, then port
 * @param failures why a device or port could not be read, by {@code device/port} (or
 * {@code device} alone), e.g. on a kernel older than 5.16
 * @param unavailable why RDMA netlink could not be asked at all, or {@code null}
 * @param readAt when the read started
 * @author rdma-counters
 * @since 0.1.0
 */
public record OptionalCountersSnapshot(List<PortOptionalCounters> ports, Map<String, String> failures,
		@Nullable String unavailable, Instant readAt) {

	/**
	 * Create a snapshot.
	 * @param ports the ports
	 * @param failures the failures
	 * @param unavailable why RDMA netlink could not be asked, or {@code null}
	 * @param readAt when the read started
	 */
	public OptionalCountersSnapshot {
		ports = List.copyOf(ports);
		failures = Map.copyOf(failures);
	}

	/**
	 * Return the optional counters of a port.
	 * @param device the device name
	 * @param port the port
	 * @return the counters, or {@code null} if the port has none or could not be read
	 */
	public @Nullable PortOptionalCounters port(String device, int port) {
		for (PortOptionalCounters candidate : this.ports) {
			if (candidate.device().equals(device) && candidate.port() == port) {
				return candidate;
			}
		}
		return null;
	}

}

package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Device information and port counters read from sysfs at one time.
 *
 * @param deviceName the device name
 * @param firmwareVersion {@code fw_ver}, or {@code null} if unreadable
 * @param boardId {@code board_id}, or {@code null} if unreadable
 * @param hcaType {@code hca_type}, or {@code null} if unreadable
 * @param nodeGuid {@code node_guid} as printed, or {@code null} if unreadable
 * @param ports the ports, by number
 * @param readAt when the files were read
 */
public record PortCountersSnapshot(String deviceName, @Nullable String firmwareVersion, @Nullable String boardId,
		@Nullable String hcaType, @Nullable String nodeGuid, List<PortStatus> ports, Instant readAt) {

	/**
	 * Return a port by number.
	 * @param port the port number
	 * @return the port, or {@code null} if the device has no such port
	 */
	public @Nullable PortStatus port(int port) {
		for (PortStatus status : this.ports) {
			if (status.port() == port) {
				return status;
			}
		}
		return null;
	}

}

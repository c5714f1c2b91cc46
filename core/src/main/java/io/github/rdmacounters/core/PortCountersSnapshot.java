package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Device information and port counters read from sysfs at one time.
 *
 * @param deviceName the device name
 * @param firmwareVersion {@code fw_ver}, or {@code null} if unreadable
 * @param boardId {@code board_id}, or {@code null} if unreadable
 * @param hcaType {@code hca_type}, or {@code null} if unreadable
 * @param nodeGuid {@code node_guid} as printed, or {@code null} if unreadable
 * @param ports the ports by number; a port whose directory is gone is
 * {@link Presence#GONE}
 * @param readAt when the files were read
 * @param presence whether the device directory was found
 * @param identity the device's network interfaces and PCI function, the last known for a
 * gone device
 * @param stall the read of the device that has not returned within its deadline, whose
 * ports are shown without values; {@code null} for a snapshot that was read
 * @since 0.1.0
 */
public record PortCountersSnapshot(String deviceName, @Nullable String firmwareVersion, @Nullable String boardId,
		@Nullable String hcaType, @Nullable String nodeGuid, List<PortStatus> ports, Instant readAt, Presence presence,
		DeviceIdentity identity, @Nullable ReadStall stall) {

	/** Create a snapshot of a device that was read. */
	public PortCountersSnapshot(String deviceName, @Nullable String firmwareVersion, @Nullable String boardId,
			@Nullable String hcaType, @Nullable String nodeGuid, List<PortStatus> ports, Instant readAt,
			Presence presence, DeviceIdentity identity) {
		this(deviceName, firmwareVersion, boardId, hcaType, nodeGuid, ports, readAt, presence, identity, null);
	}

	/**
	 * Return this device as a read past its deadline shows it: its ports, without link
	 * state or counter values, marked with the stall.
	 * @param stall the stall
	 * @param at when the stall was seen
	 * @return the snapshot
	 */
	public PortCountersSnapshot stalled(ReadStall stall, Instant at) {
		List<PortStatus> stalled = this.ports.stream()
			.map((port) -> new PortStatus(port.port(), PortLink.UNKNOWN, Map.of(), Map.of(), List.of(), List.of(),
					port.presence()))
			.toList();
		return new PortCountersSnapshot(this.deviceName, this.firmwareVersion, this.boardId, this.hcaType,
				this.nodeGuid, stalled, at, this.presence, this.identity, stall);
	}

	/** Create a snapshot of a device that was found, of unknown identity. */
	public PortCountersSnapshot(String deviceName, @Nullable String firmwareVersion, @Nullable String boardId,
			@Nullable String hcaType, @Nullable String nodeGuid, List<PortStatus> ports, Instant readAt) {
		this(deviceName, firmwareVersion, boardId, hcaType, nodeGuid, ports, readAt, Presence.PRESENT,
				DeviceIdentity.UNKNOWN);
	}

	public PortCountersSnapshot {
		ports = List.copyOf(ports);
	}

	public boolean isPresent() {
		return this.presence == Presence.PRESENT;
	}

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

package io.github.rdmacounters.actuate.endpoint;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.DeviceIdentity;
import io.github.rdmacounters.core.PortCountersSnapshot;

/**
 * One device: what it is, whether it could be opened, its ports and counter sets. A
 * {@code null} component is left out of the JSON; components are in alphabetical order,
 * the order the JSON shows them in.
 *
 * @param available whether the device is open
 * @param backend {@code native} or {@code simulated}
 * @param boardId the board id from sysfs
 * @param counterSets the counter sets by name
 * @param error why the device could not be queried
 * @param firmwareVersion the firmware version
 * @param hcaType the HCA type from sysfs
 * @param managedFlowSteering whether the device supports managed flow steering, which
 * flow counters need
 * @param name the device name, e.g. {@code mlx5_0}
 * @param netdevs the network interfaces of the device's PCI function, e.g.
 * {@code [ens1f0np0]}
 * @param nodeGuid the node GUID as sysfs prints it
 * @param pciAddress the PCI address of the device, e.g. {@code 0000:41:00.0}
 * @param physicalFunction the PCI address of the physical function of a virtual function
 * @param ports the ports by number
 * @param present whether the device's sysfs directory was found in the last read;
 * {@code null} without port counters
 * @param stalled the file or call a read of the device's port counters is stuck in past
 * its deadline, and for how long, e.g.
 * {@code mlx5_0/ports/1/counters/port_rcv_data: no answer after 512 ms}; its values are
 * left out meanwhile
 * @param unavailableReason why the device is unavailable
 * @param virtualFunction whether the device is an SR-IOV virtual function; {@code null}
 * without a PCI function
 * @since 0.1.0
 * @author rdma-counters
 */
public record DeviceDescriptor(boolean available, String backend, @Nullable String boardId,
		Map<String, CounterSetDescriptor> counterSets, @Nullable String error, @Nullable String firmwareVersion,
		@Nullable String hcaType, @Nullable Boolean managedFlowSteering, String name, @Nullable List<String> netdevs,
		@Nullable String nodeGuid, @Nullable String pciAddress, @Nullable String physicalFunction,
		Map<Integer, PortDescriptor> ports, @Nullable Boolean present, @Nullable String stalled,
		@Nullable String unavailableReason, @Nullable Boolean virtualFunction) {

	static DeviceDescriptor of(String name, String backend, boolean available, @Nullable String unavailableReason,
			@Nullable DeviceAttributes attributes, @Nullable String error, @Nullable PortCountersSnapshot snapshot,
			Map<Integer, PortDescriptor> ports, Map<String, CounterSetDescriptor> counterSets) {
		DeviceIdentity identity = (snapshot != null) ? snapshot.identity() : DeviceIdentity.UNKNOWN;
		String nodeGuid = (attributes != null) ? attributes.formattedNodeGuid()
				: (snapshot != null) ? snapshot.nodeGuid() : null;
		String firmware = (attributes != null) ? attributes.firmwareVersion()
				: (snapshot != null) ? snapshot.firmwareVersion() : null;
		return new DeviceDescriptor(available, backend, (snapshot != null) ? snapshot.boardId() : null,
				Collections.unmodifiableMap(counterSets), error, firmware,
				(snapshot != null) ? snapshot.hcaType() : null,
				(attributes != null) ? attributes.managedFlowSteering() : null, name,
				identity.netdevs().isEmpty() ? null : identity.netdevs(), nodeGuid, identity.pciAddress(),
				identity.physicalFunction(), Collections.unmodifiableMap(ports),
				(snapshot != null) ? snapshot.isPresent() : null,
				(snapshot != null && snapshot.stall() != null) ? snapshot.stall().describe() : null, unavailableReason,
				(identity.pciAddress() != null) ? identity.virtualFunction() : null);
	}

	DeviceDescriptor withPorts(Map<Integer, PortDescriptor> ports) {
		return new DeviceDescriptor(this.available, this.backend, this.boardId, this.counterSets, this.error,
				this.firmwareVersion, this.hcaType, this.managedFlowSteering, this.name, this.netdevs, this.nodeGuid,
				this.pciAddress, this.physicalFunction, Collections.unmodifiableMap(ports), this.present, this.stalled,
				this.unavailableReason, this.virtualFunction);
	}

}

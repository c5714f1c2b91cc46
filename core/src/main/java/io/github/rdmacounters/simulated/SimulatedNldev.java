package io.github.rdmacounters.simulated;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.netlink.HwCounterStatus;
import io.github.rdmacounters.netlink.NetlinkBudget;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.NldevCounterMode;
import io.github.rdmacounters.netlink.NldevDevice;
import io.github.rdmacounters.netlink.NldevQpCounter;
import io.github.rdmacounters.netlink.NldevQueuePair;
import io.github.rdmacounters.netlink.RdmaNldev;

/**
 * RDMA netlink's answers about the simulated devices, from the same model as their ports:
 * a RoCE port of a device with flow counters has mlx5's optional counters, which count
 * the RoCE traffic and, while the port is congested, ECN marks and CNPs. Answers follow
 * {@code drivers/infiniband/core/nldev.c}: an unknown device or port is {@code EINVAL}, a
 * name that is not an optional counter is refused before anything changes, and enabling
 * keeps what is enabled. A device that was removed and restored is registered again under
 * a new index, with its optional counters disabled. The queue pairs are the raw packet
 * ones the open contexts created for their flows, owned by this process.
 *
 * @author rdma-counters
 */
final class SimulatedNldev implements NldevClient {

	private final SimulatedBackend backend;

	SimulatedNldev(SimulatedBackend backend) {
		this.backend = backend;
	}

	@Override
	public List<NldevDevice> devices() {
		List<NldevDevice> devices = new ArrayList<>();
		for (SimulatedHardware hardware : this.backend.presentHardware()) {
			devices.add(new NldevDevice(this.backend.nldevIndex(hardware.name()), hardware.name(), hardware.portCount(),
					hardware.spec().nodeGuid(), "16.35.2000", hardware.spec().roceEnabled() ? "roce" : "ib"));
		}
		return devices;
	}

	@Override
	public List<HwCounterStatus> counterStatus(NldevDevice device, int port) {
		SimulatedHardware hardware = hardware(device, port, "RDMA_NLDEV_CMD_STAT_GET_STATUS");
		Map<String, Long> enabled = hardware.optionalCounters(port);
		List<HwCounterStatus> status = new ArrayList<>();
		for (String name : hwCounters(hardware)) {
			status.add(new HwCounterStatus(name, status.size(), false, true));
		}
		for (String name : optionalCounters(hardware, port)) {
			status.add(new HwCounterStatus(name, status.size(), true, enabled.containsKey(name)));
		}
		return status;
	}

	@Override
	public Map<String, Long> portCounters(NldevDevice device, int port) {
		SimulatedHardware hardware = hardware(device, port, "RDMA_NLDEV_CMD_STAT_GET");
		Map<String, Long> enabled = hardware.optionalCounters(port);
		Map<String, Long> values = new LinkedHashMap<>();
		for (String name : hwCounters(hardware)) {
			values.put(name, hardware.hwCounter(port, name));
		}
		// stat_get_doit_default_counter skips the disabled ones
		for (String name : optionalCounters(hardware, port)) {
			Long value = enabled.get(name);
			if (value != null) {
				values.put(name, value);
			}
		}
		return values;
	}

	@Override
	public List<String> enableOptionalCounters(NldevDevice device, int port, Collection<String> names) {
		SimulatedHardware hardware = hardware(device, port, "RDMA_NLDEV_CMD_STAT_SET");
		List<String> optional = optionalCounters(hardware, port);
		for (String name : names) {
			if (!optional.contains(name)) {
				throw new IllegalArgumentException("'" + name + "' is not an optional counter of " + device.name()
						+ " port " + port + "; its optional counters are " + optional);
			}
		}
		Set<String> enabled = new LinkedHashSet<>(hardware.optionalCounters(port).keySet());
		List<String> added = names.stream().distinct().filter((name) -> !enabled.contains(name)).toList();
		if (!added.isEmpty()) {
			enabled.addAll(added);
			hardware.setOptionalCounters(port, enabled);
		}
		return added;
	}

	@Override
	public List<NldevQueuePair> queuePairs(NldevDevice device, NetlinkBudget budget) {
		return hardware(device, 1, "RDMA_NLDEV_CMD_RES_QP_GET").queuePairs();
	}

	@Override
	public NldevCounterMode queuePairCounterMode(NldevDevice device, int port) {
		int[] mode = hardware(device, port, "RDMA_NLDEV_CMD_STAT_GET").counterMode(port);
		return new NldevCounterMode(mode[0], (mode[0] == RdmaNldev.COUNTER_MODE_AUTO) ? mode[1] : 0);
	}

	@Override
	public void setQueuePairAutoMode(NldevDevice device, int port, int mask) {
		hardware(device, port, "RDMA_NLDEV_CMD_STAT_SET").setAutoMode(port, mask);
	}

	@Override
	public long bindQueuePair(NldevDevice device, int port, long lqpn, @Nullable Long counterId) {
		return hardware(device, port, "RDMA_NLDEV_CMD_STAT_SET").bind(port, lqpn, counterId);
	}

	@Override
	public void unbindQueuePair(NldevDevice device, int port, long lqpn, long counterId) {
		hardware(device, port, "RDMA_NLDEV_CMD_STAT_DEL").unbind(port, lqpn, counterId);
	}

	@Override
	public List<NldevQpCounter> queuePairCounters(NldevDevice device, NetlinkBudget budget) {
		return hardware(device, 1, "RDMA_NLDEV_CMD_STAT_GET").qpCounters();
	}

	@Override
	public void close() {
	}

	private static List<String> hwCounters(SimulatedHardware hardware) {
		return hardware.hasHwCounters() ? SimulatedHardware.HW_COUNTERS : List.of();
	}

	private static List<String> optionalCounters(SimulatedHardware hardware, int port) {
		return hardware.hasOptionalCounters(port) ? SimulatedHardware.OPTIONAL_COUNTERS : List.of();
	}

	/** ib_device_get_by_index and rdma_is_port_valid: EINVAL for what is not there. */
	private SimulatedHardware hardware(NldevDevice device, int port, String command) {
		for (SimulatedHardware hardware : this.backend.presentHardware()) {
			if (hardware.name().equals(device.name()) && this.backend.nldevIndex(hardware.name()) == device.index()) {
				if (!hardware.hasPort(port)) {
					break;
				}
				return hardware;
			}
		}
		throw new RdmaOperationException(command + " of " + device.name() + " port " + port, Errno.EINVAL);
	}

}

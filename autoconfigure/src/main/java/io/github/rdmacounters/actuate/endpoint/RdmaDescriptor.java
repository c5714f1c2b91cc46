package io.github.rdmacounters.actuate.endpoint;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * Every device the {@link RdmaEndpoint} shows.
 *
 * @param devices the devices by name
 * @param reason why there are none and what to do next, or {@code null} when there are
 * devices
 * @param portCountersStalled the file a read of the host's port counters is stuck in past
 * its deadline, and for how long; {@code null} unless a read is stuck
 * @param readsStalled how many reads of each source missed {@code rdma.read-deadline} so
 * far, by source ({@code port_counters}, {@code flow_counters}, {@code ethtool},
 * {@code optional_counters}, {@code queue_pairs}), as {@code rdma_read_stalls_total}
 * counts them
 * @param stalled the call a read of each source is stuck in past its deadline and for how
 * long, by source; only the sources with a read stuck now
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaDescriptor(Map<String, DeviceDescriptor> devices, @Nullable String reason,
		@Nullable String portCountersStalled, Map<String, Long> readsStalled,
		Map<String, String> stalled) implements OperationResponseBody {

	public RdmaDescriptor {
		devices = Collections.unmodifiableMap(devices);
		readsStalled = Collections.unmodifiableMap(new LinkedHashMap<>(readsStalled));
		stalled = Collections.unmodifiableMap(new LinkedHashMap<>(stalled));
	}

	/**
	 * Create a descriptor without the stalls of each source.
	 * @param devices the devices by name
	 * @param reason why there are none, or {@code null}
	 * @param portCountersStalled where a read of the port counters is stuck, or
	 * {@code null}
	 */
	public RdmaDescriptor(Map<String, DeviceDescriptor> devices, @Nullable String reason,
			@Nullable String portCountersStalled) {
		this(devices, reason, portCountersStalled, Map.of(), Map.of());
	}

	/**
	 * Create a descriptor of devices whose reads returned.
	 * @param devices the devices by name
	 */
	public RdmaDescriptor(Map<String, DeviceDescriptor> devices) {
		this(devices, null, null);
	}

}

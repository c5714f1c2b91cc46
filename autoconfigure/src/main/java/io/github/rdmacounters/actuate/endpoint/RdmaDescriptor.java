package io.github.rdmacounters.actuate.endpoint;

import java.util.Collections;
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
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaDescriptor(Map<String, DeviceDescriptor> devices, @Nullable String reason,
		@Nullable String portCountersStalled) implements OperationResponseBody {

	public RdmaDescriptor {
		devices = Collections.unmodifiableMap(devices);
	}

	/**
	 * Create a descriptor of devices whose reads returned.
	 * @param devices the devices by name
	 */
	public RdmaDescriptor(Map<String, DeviceDescriptor> devices) {
		this(devices, null, null);
	}

}

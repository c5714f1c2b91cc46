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
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaDescriptor(Map<String, DeviceDescriptor> devices,
		@Nullable String reason) implements OperationResponseBody {

	public RdmaDescriptor {
		devices = Collections.unmodifiableMap(devices);
	}

	/**
	 * Create a descriptor of some devices.
	 * @param devices the devices by name
	 */
	public RdmaDescriptor(Map<String, DeviceDescriptor> devices) {
		this(devices, null);
	}

}

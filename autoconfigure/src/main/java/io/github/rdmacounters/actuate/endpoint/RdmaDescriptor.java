package io.github.rdmacounters.actuate.endpoint;

import java.util.Collections;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * Every device the {@link RdmaEndpoint} shows.
 *
 * @param devices the devices by name
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaDescriptor(Map<String, DeviceDescriptor> devices) implements OperationResponseBody {

	public RdmaDescriptor {
		devices = Collections.unmodifiableMap(devices);
	}

}

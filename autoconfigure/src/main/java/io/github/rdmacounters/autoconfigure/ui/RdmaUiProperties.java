package io.github.rdmacounters.autoconfigure.ui;

import java.time.Duration;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The live counters page ({@code rdma.ui}).
 *
 * @param enabled Whether to serve the live counters page; protect it as the rdma
 * endpoint.
 * @param path Path of the live counters page, relative to the servlet context path.
 * @param pollInterval How often the page polls the rdma Actuator endpoint, 250ms to 1h.
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaUiProperties(@DefaultValue("false") boolean enabled, @DefaultValue("/rdma-ui") String path,
		@DefaultValue("2s") Duration pollInterval) {

}

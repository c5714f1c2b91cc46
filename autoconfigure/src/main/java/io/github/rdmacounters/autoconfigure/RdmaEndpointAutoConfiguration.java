package io.github.rdmacounters.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@link RdmaEndpoint}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnAvailableEndpoint(RdmaEndpoint.class)
@ConditionalOnBean(RdmaRegistry.class)
public final class RdmaEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RdmaEndpoint rdmaEndpoint(RdmaRegistry registry, ObjectProvider<HostPortCountersSource> hostPortCounters,
			ObjectProvider<RdmaBackend> backend, ObjectProvider<OptionalCounters> optionalCounters,
			ObjectProvider<ProcessQueuePairs> queuePairs, ObjectProvider<HostNetdevStatistics> ethtool,
			ObjectProvider<QueuePairCounters> queuePairCounters) {
		RdmaBackend rdmaBackend = backend.getIfAvailable();
		return new RdmaEndpoint(registry, hostPortCounters.getIfAvailable(),
				(rdmaBackend != null) ? rdmaBackend.name() : "sysfs", optionalCounters.getIfAvailable(),
				queuePairs.getIfAvailable(), ethtool.getIfAvailable(), queuePairCounters.getIfAvailable());
	}

}

package io.github.rdmacounters.autoconfigure.health;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

import io.github.rdmacounters.actuate.health.RdmaHealthContributor;
import io.github.rdmacounters.actuate.health.RdmaHealthIndicator;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@code rdma} health
 * contributor, a composite of one {@link RdmaHealthIndicator} per device.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class)
@ConditionalOnClass({ ConditionalOnEnabledHealthIndicator.class, HealthContributor.class })
@ConditionalOnBean(RdmaRegistry.class)
@ConditionalOnEnabledHealthIndicator("rdma")
public final class RdmaHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "rdmaHealthIndicator", "rdmaHealthContributor" })
	HealthContributor rdmaHealthContributor(RdmaRegistry registry,
			ObjectProvider<HostPortCountersSource> hostPortCounters, ObjectProvider<HostNetdevStatistics> ethtool) {
		return new RdmaHealthContributor(registry, hostPortCounters.getIfAvailable(), ethtool.getIfAvailable());
	}

}

package io.github.rdmacounters.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

import io.github.rdmacounters.actuate.health.RdmaHealthIndicator;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link RdmaHealthIndicator}
 * ({@code rdma} in {@code /actuator/health}), turned off with
 * {@code management.health.rdma.enabled=false}. One device gives one indicator; several
 * give a composite with one indicator per device name.
 *
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class)
@ConditionalOnClass({ ConditionalOnEnabledHealthIndicator.class, HealthContributor.class })
@ConditionalOnBean(RdmaRegistry.class)
@ConditionalOnEnabledHealthIndicator("rdma")
public final class RdmaHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "rdmaHealthIndicator", "rdmaHealthContributor" })
	HealthContributor rdmaHealthContributor(RdmaRegistry registry) {
		if (registry.devices().size() == 1) {
			return new RdmaHealthIndicator(registry.devices().get(0));
		}
		Map<String, RdmaHealthIndicator> indicators = new LinkedHashMap<>();
		for (ManagedDevice device : registry.devices()) {
			indicators.put(device.name(), new RdmaHealthIndicator(device));
		}
		return CompositeHealthContributor.fromMap(indicators);
	}

}

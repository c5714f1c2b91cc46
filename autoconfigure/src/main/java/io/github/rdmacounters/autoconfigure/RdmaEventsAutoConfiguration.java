package io.github.rdmacounters.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.event.RdmaEventPublisher;
import io.github.rdmacounters.metrics.RdmaEventMetrics;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of RDMA device events: the
 * {@link RdmaEventPublisher} and, with Micrometer, the {@link RdmaEventMetrics}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnBean(RdmaRegistry.class)
@Conditional(OnRdmaEnabledCondition.Events.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaEventsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RdmaEventPublisher rdmaEventPublisher(RdmaRegistry registry, ApplicationEventPublisher publisher,
			RdmaProperties properties) {
		return new RdmaEventPublisher(registry, publisher,
				properties.getEvents().getPortDownReadiness() == RdmaEventsProperties.PortDownReadiness.REFUSE_TRAFFIC);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class EventMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RdmaEventMetrics rdmaEventMetrics(RdmaRegistry registry) {
			return new RdmaEventMetrics(registry);
		}

	}

}

package io.github.rdmacounters.autoconfigure.metrics;

import java.util.List;
import java.util.function.Predicate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.metrics.PortCountersMetrics;
import io.github.rdmacounters.metrics.RdmaFlowMetrics;
import io.github.rdmacounters.metrics.ReadMetrics;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the Micrometer meters of the
 * counter sets ({@link RdmaFlowMetrics}) and of the port counters
 * ({@link PortCountersMetrics}).
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, RdmaRegistry.class })
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RdmaFlowMetrics rdmaFlowMetrics(RdmaRegistry registry) {
		return new RdmaFlowMetrics(registry);
	}

	@Bean
	@ConditionalOnMissingBean
	@Conditional(OnRdmaEnabledCondition.PortCounters.class)
	PortCountersMetrics rdmaPortCountersMetrics(RdmaRegistry registry, RdmaProperties properties,
			ObjectProvider<HostPortCountersSource> hostPortCounters) {
		RdmaProperties.PortCounters portCounters = properties.portCounters();
		Predicate<String> filter = PortCountersMetrics.filter(portCounters.include(), portCounters.exclude());
		HostPortCountersSource host = hostPortCounters.getIfAvailable();
		return (host != null) ? new PortCountersMetrics(host, filter, Tags.empty())
				: new PortCountersMetrics(registry, filter);
	}

	/**
	 * How the reads of the port counters and the counter sets went: duration, success and
	 * stalls past {@code rdma.read-deadline}.
	 */
	@Bean
	@ConditionalOnMissingBean
	ReadMetrics rdmaReadMetrics(RdmaRegistry registry, ObjectProvider<HostPortCountersSource> hostPortCounters) {
		ReadMetrics metrics = new ReadMetrics();
		if (hostPortCounters.getIfAvailable() instanceof SysfsHostPortCountersSource sysfs) {
			metrics.source("port_counters", () -> List.of(sysfs.reads()));
		}
		if (!registry.counterSets().isEmpty()) {
			metrics.source("flow_counters", () -> registry.counterSets().stream().map(CounterSet::reads).toList());
		}
		return metrics;
	}

}

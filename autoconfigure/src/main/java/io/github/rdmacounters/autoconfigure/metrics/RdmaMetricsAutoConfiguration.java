package io.github.rdmacounters.autoconfigure.metrics;

import java.util.ArrayList;
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
import io.github.rdmacounters.core.ReadCache;
import io.github.rdmacounters.ethtool.HostNetdevStatistics;
import io.github.rdmacounters.metrics.PortCountersMetrics;
import io.github.rdmacounters.metrics.RdmaFlowMetrics;
import io.github.rdmacounters.metrics.ReadMetrics;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;
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
	 * How the reads of the port counters, the counter sets, the ethtool statistics, the
	 * optional counters and the queue pairs went: duration, success and stalls past
	 * {@code rdma.read-deadline}.
	 */
	@Bean
	@ConditionalOnMissingBean
	ReadMetrics rdmaReadMetrics(RdmaRegistry registry, ObjectProvider<HostPortCountersSource> hostPortCounters,
			ObjectProvider<HostNetdevStatistics> ethtool, ObjectProvider<OptionalCounters> optionalCounters,
			ObjectProvider<ProcessQueuePairs> queuePairs, ObjectProvider<QueuePairCounters> queuePairCounters) {
		ReadMetrics metrics = new ReadMetrics();
		if (hostPortCounters.getIfAvailable() instanceof SysfsHostPortCountersSource sysfs) {
			metrics.source("port_counters", () -> List.of(sysfs.reads()));
		}
		if (!registry.counterSets().isEmpty()) {
			metrics.source("flow_counters", () -> registry.counterSets().stream().map(CounterSet::reads).toList());
		}
		HostNetdevStatistics netdevs = ethtool.getIfAvailable();
		if (netdevs != null) {
			metrics.source("ethtool", netdevs::reads);
		}
		OptionalCounters optional = optionalCounters.getIfAvailable();
		if (optional != null) {
			metrics.source("optional_counters", () -> List.of(optional.reads()));
		}
		List<ReadCache<?>> queuePairReads = new ArrayList<>();
		queuePairs.ifAvailable((source) -> queuePairReads.add(source.reads()));
		queuePairCounters.ifAvailable((source) -> queuePairReads.add(source.reads()));
		if (!queuePairReads.isEmpty()) {
			metrics.source("queue_pairs", () -> queuePairReads);
		}
		return metrics;
	}

}

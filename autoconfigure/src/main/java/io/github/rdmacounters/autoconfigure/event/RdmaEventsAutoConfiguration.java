package io.github.rdmacounters.autoconfigure.event;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
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

import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.event.RdmaEventPublisher;
import io.github.rdmacounters.metrics.RdmaEventMetrics;
import io.github.rdmacounters.netlink.MonitorEventActions;
import io.github.rdmacounters.netlink.NldevMonitor;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of RDMA device events: the
 * {@link RdmaEventPublisher}, RDMA netlink's device monitor ({@link NldevMonitor}) and,
 * with Micrometer, the {@link RdmaEventMetrics}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnBean(RdmaRegistry.class)
@Conditional(RdmaEventsAutoConfiguration.OnEventsEnabled.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaEventsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RdmaEventPublisher rdmaEventPublisher(RdmaRegistry registry, ApplicationEventPublisher publisher,
			RdmaProperties properties) {
		return new RdmaEventPublisher(registry, publisher,
				properties.events().portDownReadiness() == RdmaEventsProperties.PortDownReadiness.REFUSE_TRAFFIC);
	}

	/**
	 * Follow RDMA netlink's device monitor (the simulator's on the simulated backend),
	 * and let its events refresh the host's devices, enable optional counters again and
	 * reopen a failed device at once. Where the kernel has no monitor, one INFO line.
	 * @param backend the backend
	 * @param registry the managed devices
	 * @param host the port counters of every device, if read
	 * @param optionalCounters the optional counters, if read
	 * @return the actions, which stop the monitor when closed
	 */
	@Bean
	@ConditionalOnMissingBean
	@Conditional(RdmaEventsAutoConfiguration.OnMonitorEnabled.class)
	MonitorEventActions rdmaMonitorEventActions(ObjectProvider<RdmaBackend> backend, RdmaRegistry registry,
			ObjectProvider<HostPortCountersSource> host, ObjectProvider<OptionalCounters> optionalCounters) {
		MonitorEventActions actions = new MonitorEventActions(host.getIfAvailable(), optionalCounters.getIfAvailable(),
				registry::devices);
		Log log = LogFactory.getLog(NldevMonitor.class);
		// on a host without a device, the startup line of RdmaPropertiesChecks says why
		HostPortCountersSource devices = host.getIfAvailable();
		boolean none = devices != null && devices.deviceNames().isEmpty();
		actions.follow((backend.getIfAvailable() instanceof SimulatedBackend simulated) ? simulated.monitor(actions)
				: NldevMonitor.start(actions, none ? log::debug : log::info));
		return actions;
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

	/**
	 * Matches unless {@code rdma.events.enabled} is false.
	 */
	static final class OnEventsEnabled extends OnRdmaEnabledCondition {

		OnEventsEnabled() {
			super(RdmaProperties.PREFIX + ".events.enabled", true,
					"whether device events are published as application events and counted");
		}

	}

	/**
	 * Matches unless {@code rdma.events.monitor.enabled} is false.
	 */
	static final class OnMonitorEnabled extends OnRdmaEnabledCondition {

		OnMonitorEnabled() {
			super(RdmaProperties.PREFIX + ".events.monitor.enabled", true,
					"whether RDMA netlink's device monitor is followed");
		}

	}

}

package io.github.rdmacounters.autoconfigure.netlink;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.actuate.health.RdmaOptionalCountersHealthIndicator;
import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaEndpointAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.core.DeviceEventTracker;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.metrics.OptionalCountersMetrics;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.RdmaNetlink;
import io.github.rdmacounters.simulated.SimulatedBackend;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the optional counters of the
 * ports over RDMA netlink ({@link OptionalCounters}): the ones
 * {@code rdma.optional-counters.enable} names are enabled at startup and again after a
 * device was reopened, and the meters ({@link OptionalCountersMetrics}). The simulated
 * backend answers from its own model; an {@link NldevClient} bean replaces both.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		before = { RdmaEndpointAutoConfiguration.class, RdmaHealthContributorAutoConfiguration.class },
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnBean({ RdmaBackend.class, RdmaRegistry.class })
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaOptionalCountersAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@Conditional(RdmaOptionalCountersAutoConfiguration.OnOptionalCountersEnabled.class)
	OptionalCounters rdmaOptionalCounters(RdmaProperties properties, RdmaBackend backend, RdmaRegistry registry,
			ObjectProvider<NldevClient> client) {
		Supplier<NldevClient> opener = nldev(backend, client);
		Log log = LogFactory.getLog(OptionalCounters.class);
		OptionalCounters counters = new OptionalCounters(opener, settings(properties.optionalCounters()),
				properties.readCacheTtl(), Clock.systemUTC(), log::warn, properties.readDeadline());
		counters.applyAll();
		for (ManagedDevice device : registry.devices()) {
			DeviceEventTracker events = device.events();
			if (events != null) {
				// a reset device lost its optional counters
				events.addReopenListener(() -> counters.reapply(device.name()));
			}
		}
		return counters;
	}

	/**
	 * Return what opens RDMA netlink: an {@link NldevClient} bean, the simulator's, or
	 * the kernel's.
	 * @param backend the backend
	 * @param client the client bean, if any
	 * @return what opens RDMA netlink
	 */
	public static Supplier<NldevClient> nldev(RdmaBackend backend, ObjectProvider<NldevClient> client) {
		NldevClient given = client.getIfAvailable();
		if (given != null) {
			return () -> given;
		}
		return (backend instanceof SimulatedBackend simulated) ? simulated::nldev : RdmaNetlink::open;
	}

	static OptionalCounters.Settings settings(RdmaOptionalCountersProperties properties) {
		Map<String, List<String>> devices = new LinkedHashMap<>();
		properties.devices().forEach((name, device) -> devices.put(name, device.enable()));
		return new OptionalCounters.Settings(properties.enable(), devices, RdmaOptionalCountersProperties.PREFIX);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	@Conditional(RdmaOptionalCountersAutoConfiguration.OnOptionalCountersEnabled.class)
	static class OptionalCountersMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		OptionalCountersMetrics rdmaOptionalCountersMetrics(OptionalCounters counters) {
			return new OptionalCountersMetrics(counters, Tags.empty());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ ConditionalOnEnabledHealthIndicator.class, HealthContributor.class })
	@ConditionalOnEnabledHealthIndicator("rdmaOptionalCounters")
	@Conditional(RdmaOptionalCountersAutoConfiguration.OnOptionalCountersEnabled.class)
	static class OptionalCountersHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "rdmaOptionalCountersHealthIndicator")
		RdmaOptionalCountersHealthIndicator rdmaOptionalCountersHealthIndicator(OptionalCounters counters) {
			return new RdmaOptionalCountersHealthIndicator(counters);
		}

	}

	/**
	 * Matches unless {@code rdma.optional-counters.enabled} is false.
	 */
	static final class OnOptionalCountersEnabled extends OnRdmaEnabledCondition {

		OnOptionalCountersEnabled() {
			super(RdmaOptionalCountersProperties.PREFIX + ".enabled", true,
					"whether the optional counters of every port are read");
		}

	}

}

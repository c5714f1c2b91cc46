package io.github.rdmacounters.autoconfigure.observation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.observation.CounterDeltaObservationHandler;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the
 * {@link CounterDeltaObservationHandler}: counter deltas on the observations named in
 * {@code rdma.observations.names}, for the sets named in {@code rdma.observations.sets}.
 * Boot registers every {@link ObservationHandler} bean with its observation registry.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, ObservationHandler.class })
@ConditionalOnBean(RdmaRegistry.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaObservationsAutoConfiguration {

	static final String PREFIX = RdmaProperties.PREFIX + ".observations";

	/**
	 * Observation names that Spring and common libraries give to every request, message
	 * or query: two device reads each would cost more than the work observed.
	 */
	private static final List<String> PER_REQUEST_PREFIXES = List.of("http.", "spring.security.", "jdbc.", "r2dbc.",
			"spring.kafka.", "spring.rabbit.", "spring.jms.", "mongodb.", "spring.data.redis", "grpc.");

	private static final Log logger = LogFactory.getLog(RdmaObservationsAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	@Conditional(OnObservationsEnabled.class)
	CounterDeltaObservationHandler rdmaCounterDeltaObservationHandler(ObjectProvider<MeterRegistry> meterRegistry,
			RdmaRegistry registry, RdmaProperties properties, ListableBeanFactory beanFactory) {
		RdmaObservationsProperties observations = properties.observations();
		Set<String> names = names(observations.names());
		List<CounterSet> sets = sets(observations.sets(), registry);
		MeterRegistry meters = meterRegistry.getIfAvailable();
		if (meters == null) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".enabled", true,
					"needs a Micrometer MeterRegistry to record the deltas in: add spring-boot-starter-actuator, "
							+ "or set " + PREFIX + ".enabled=false");
		}
		// by name only: asking for the registry would create it, and it asks for this
		// handler
		if (beanFactory.getBeanNamesForType(ObservationRegistry.class, true, false).length == 0) {
			logger.warn(PREFIX + ".enabled=true has no effect: the application has no ObservationRegistry bean to "
					+ "register the counter-delta handler with; add spring-boot-starter-actuator (Spring Boot's "
					+ "observation auto-configuration), or set " + PREFIX + ".enabled=false");
		}
		return new CounterDeltaObservationHandler(meters, names, sets);
	}

	private static Set<String> names(List<String> written) {
		if (written.isEmpty()) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".names", "",
					"must name the observations to record counter deltas for, e.g. checkpoint (the name given "
							+ "to @Observed or Observation.createNotStarted), or set " + PREFIX + ".enabled=false");
		}
		Set<String> names = new LinkedHashSet<>();
		for (int i = 0; i < written.size(); i++) {
			String name = written.get(i);
			if (name == null || name.isBlank()) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + ".names[" + i + "]", name,
						"must be an observation name such as checkpoint, not blank");
			}
			if (!name.equals(name.strip())) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + ".names[" + i + "]", name,
						"must be an observation name without leading or trailing spaces: '" + name.strip() + "'");
			}
			for (String prefix : PER_REQUEST_PREFIXES) {
				if (name.startsWith(prefix)) {
					logger.warn(PREFIX + ".names[" + i + "]=" + name + " looks like an observation of every "
							+ "request, message or query: each costs two fresh reads of every set in " + PREFIX
							+ ".sets (a firmware command each on mlx5), and concurrent ones overlap, so their "
							+ "deltas are marked overlapped=true; name the observations of the work to measure "
							+ "instead");
					break;
				}
			}
			names.add(name);
		}
		return names;
	}

	private static List<CounterSet> sets(List<String> written, RdmaRegistry registry) {
		List<String> existing = registry.counterSets().stream().map(CounterSet::name).toList();
		if (written.isEmpty()) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".sets", "",
					"must name the counter sets to read around each observation, of " + describe(existing) + ", or set "
							+ PREFIX + ".enabled=false");
		}
		List<CounterSet> sets = new ArrayList<>();
		for (int i = 0; i < written.size(); i++) {
			String name = written.get(i);
			CounterSet set = (name != null) ? registry.counterSet(name) : null;
			if (set == null) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + ".sets[" + i + "]", name,
						"must be the name of a counter set under rdma.counter-sets, of " + describe(existing));
			}
			if (!sets.contains(set)) {
				sets.add(set);
			}
		}
		return sets;
	}

	private static String describe(List<String> existing) {
		return existing.isEmpty() ? "which there are none: configure one first"
				: "which there are " + String.join(", ", existing);
	}

	/**
	 * Warns once about settings under {@code rdma.observations} while the feature is off.
	 */
	@Configuration(proxyBeanMethods = false)
	@Conditional(OnObservationsDisabled.class)
	static class ObservationsOffConfiguration {

		ObservationsOffConfiguration(RdmaProperties properties) {
			RdmaObservationsProperties observations = properties.observations();
			List<String> set = new ArrayList<>();
			if (!observations.names().isEmpty()) {
				set.add(PREFIX + ".names=" + String.join(",", observations.names()));
			}
			if (!observations.sets().isEmpty()) {
				set.add(PREFIX + ".sets=" + String.join(",", observations.sets()));
			}
			if (!set.isEmpty()) {
				logger.warn(String.join(", ", set) + ((set.size() == 1) ? " has" : " have") + " no effect: " + PREFIX
						+ ".enabled=false switches counter deltas on observations off; remove "
						+ ((set.size() == 1) ? "it" : "them") + ", or set " + PREFIX + ".enabled=true");
			}
		}

	}

	/**
	 * Matches when {@code rdma.observations.enabled} is true.
	 */
	static final class OnObservationsEnabled extends OnRdmaEnabledCondition {

		OnObservationsEnabled() {
			super(PREFIX + ".enabled", false,
					"whether the selected observations record the counter deltas of the chosen sets");
		}

	}

	/**
	 * Matches when {@code rdma.observations.enabled} is false or not set.
	 */
	static final class OnObservationsDisabled extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			ConditionOutcome enabled = new OnObservationsEnabled().getMatchOutcome(context, metadata);
			return new ConditionOutcome(!enabled.isMatch(), enabled.getConditionMessage());
		}

	}

}

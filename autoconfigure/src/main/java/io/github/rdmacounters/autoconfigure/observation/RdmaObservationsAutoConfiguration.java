package io.github.rdmacounters.autoconfigure.observation;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Predicate;

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
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.autoconfigure.netlink.RdmaOptionalCountersAutoConfiguration;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.netlink.NetlinkBudget;
import io.github.rdmacounters.netlink.NldevClient;
import io.github.rdmacounters.netlink.ProcessQueuePairs;
import io.github.rdmacounters.netlink.QueuePairCounters;
import io.github.rdmacounters.observation.CounterDeltaObservationHandler;
import io.github.rdmacounters.observation.PortCounterDeltaObservationHandler;
import io.github.rdmacounters.observation.QueuePairCounterDeltaObservationHandler;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the
 * {@link CounterDeltaObservationHandler}: counter deltas on the observations named in
 * {@code rdma.observations.names}, for the sets named in {@code rdma.observations.sets},
 * and the {@link PortCounterDeltaObservationHandler} for the port counters named in
 * {@code rdma.observations.port-counters} of those sets' ports, and the
 * {@link QueuePairCounterDeltaObservationHandler} for the counters named in
 * {@code rdma.observations.queue-pair-counters} of this process's queue pairs (with
 * {@code rdma.queue-pairs.enabled}). Boot registers every {@link ObservationHandler} bean
 * with its observation registry.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class,
		afterName = { "io.github.rdmacounters.autoconfigure.netlink.RdmaQueuePairsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, ObservationHandler.class })
@ConditionalOnBean(RdmaRegistry.class)
@EnableConfigurationProperties(RdmaProperties.class)
@SuppressWarnings("checkstyle:HideUtilityClassConstructor") // a bean of the context
public final class RdmaObservationsAutoConfiguration {

	static final String PREFIX = RdmaProperties.PREFIX + ".observations";

	private static final Log logger = LogFactory.getLog(RdmaObservationsAutoConfiguration.class);

	/**
	 * The handlers, registered only while {@code rdma.observations.enabled} is true: a
	 * nested configuration skipped when the configuration classes are parsed, so that an
	 * application without the feature loads none of its classes.
	 */
	@Configuration(proxyBeanMethods = false)
	@Conditional(OnObservationsEnabled.class)
	static class ObservationsConfiguration {

		/**
		 * Observation names that Spring and common libraries give to every request,
		 * message or query: two device reads each would cost more than the work observed.
		 */
		private static final List<String> PER_REQUEST_PREFIXES = List.of("http.", "spring.security.", "jdbc.", "r2dbc.",
				"spring.kafka.", "spring.rabbit.", "spring.jms.", "mongodb.", "spring.data.redis", "grpc.");

		@Bean
		@ConditionalOnMissingBean
		CounterDeltaObservationHandler rdmaCounterDeltaObservationHandler(ObjectProvider<MeterRegistry> meterRegistry,
				RdmaRegistry registry, RdmaProperties properties, ListableBeanFactory beanFactory) {
			RdmaObservationsProperties observations = properties.observations();
			Set<String> names = names(observations.names());
			List<CounterSet> sets = sets(observations.sets(), registry);
			MeterRegistry meters = meterRegistry(meterRegistry);
			// by name only: asking for the registry would create it, and it asks for this
			// handler
			if (beanFactory.getBeanNamesForType(ObservationRegistry.class, true, false).length == 0) {
				logger.warn(PREFIX + ".enabled=true has no effect: the application has no ObservationRegistry bean to "
						+ "register the counter-delta handler with; add spring-boot-starter-actuator (Spring Boot's "
						+ "observation auto-configuration), or set " + PREFIX + ".enabled=false");
			}
			return new CounterDeltaObservationHandler(meters, names, sets);
		}

		@Bean
		@ConditionalOnMissingBean
		@Conditional(OnPortCounters.class)
		PortCounterDeltaObservationHandler rdmaPortCounterDeltaObservationHandler(
				CounterDeltaObservationHandler flowDeltas, ObjectProvider<MeterRegistry> meterRegistry,
				RdmaProperties properties, RdmaBackend backend) {
			// the names and sets as the flow handler checked them, warned about once
			List<PortCounterDeltaObservationHandler.Port> ports = new ArrayList<>();
			for (CounterSet set : flowDeltas.sets()) {
				PortCounterDeltaObservationHandler.Port port = new PortCounterDeltaObservationHandler.Port(
						set.deviceName(), set.port());
				if (!ports.contains(port)) {
					ports.add(port);
				}
			}
			Set<String> devices = new LinkedHashSet<>();
			ports.forEach((port) -> devices.add(port.deviceName()));
			Path root = Path.of(properties.portCounters().sysfsRoot());
			List<String> counters = portCounters(properties.observations().portCounters(),
					listCounters(backend, root, devices::contains, properties.readDeadline()), devices);
			MeterRegistry meters = meterRegistry(meterRegistry);
			// a fresh read at every snapshot (a delta over a cached value would be wrong)
			// of
			// only the chosen devices and counters, never waited for past the read
			// deadline
			return new PortCounterDeltaObservationHandler(meters, flowDeltas.observationNames(), ports, counters,
					backend.hostPortCounters(root, devices::contains, Set.copyOf(counters)::contains, Duration.ZERO,
							properties.readDeadline()));
		}

		/**
		 * The counters of this process's queue pairs around the selected observations,
		 * read fresh by readers of their own (the queue pairs, then their counters,
		 * binding new ones as {@code rdma.queue-pairs.counters} says), never waited for
		 * past the read deadline.
		 */
		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(QueuePairCounters.class)
		@Conditional(OnQueuePairCounters.class)
		QueuePairCounterDeltaObservationHandler rdmaQueuePairCounterDeltaObservationHandler(
				CounterDeltaObservationHandler flowDeltas, ObjectProvider<MeterRegistry> meterRegistry,
				RdmaProperties properties, RdmaBackend backend, QueuePairCounters scraped,
				ObjectProvider<NldevClient> client) {
			Path root = Path.of(properties.portCounters().sysfsRoot());
			List<String> counters = queuePairCounters(properties.observations().queuePairCounters(),
					listCounters(backend, root, (device) -> true, properties.readDeadline()));
			MeterRegistry meters = meterRegistry(meterRegistry);
			ProcessQueuePairs queuePairs = new ProcessQueuePairs(
					RdmaOptionalCountersAutoConfiguration.nldev(backend, client), ProcessHandle.current().pid(),
					NetlinkBudget.DEFAULT, Duration.ZERO, Clock.systemUTC());
			Log log = LogFactory.getLog(QueuePairCounters.class);
			// the scraped counters' reader warns about binding; this one's warnings are
			// repeats
			QueuePairCounters fresh = new QueuePairCounters(
					RdmaOptionalCountersAutoConfiguration.nldev(backend, client), queuePairs, scraped.settings(),
					NetlinkBudget.DEFAULT, Duration.ZERO, Clock.systemUTC(), log::debug, properties.readDeadline());
			QueuePairCounters.Snapshot first = fresh.snapshot();
			if (first.unavailable() != null && !first.unavailable().startsWith("stalled: ")) {
				logger.warn(PREFIX + ".queue-pair-counters=" + String.join(",", counters) + " records no delta now: "
						+ "RDMA netlink cannot be asked (" + first.unavailable()
						+ "); each selected observation counts " + QueuePairCounterDeltaObservationHandler.MISSED
						+ "{reason=read} until it can");
			}
			return new QueuePairCounterDeltaObservationHandler(meters, flowDeltas.observationNames(), counters,
					fresh::freshSnapshot, () -> {
						fresh.close();
						queuePairs.close();
					});
		}

		private static List<String> queuePairCounters(List<String> written, Set<String> listed) {
			String property = PREFIX + ".queue-pair-counters";
			return counterNames(property, written, listed,
					"must be the name of a hardware counter such as out_of_sequence, not blank",
					"must be the name of a hardware counter of the host's ports (a file under hw_counters/, "
							+ "as 'rdma statistic qp show' lists them)",
					property + "=" + String.join(",", written) + " cannot be checked: the port counters could "
							+ "not be listed under rdma.port-counters.sysfs-root within rdma.read-deadline; a name "
							+ "that is no counter of the queue pairs records no delta and counts "
							+ QueuePairCounterDeltaObservationHandler.MISSED + "{reason=read}");
		}

		private static MeterRegistry meterRegistry(ObjectProvider<MeterRegistry> meterRegistry) {
			MeterRegistry meters = meterRegistry.getIfAvailable();
			if (meters == null) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + ".enabled", true,
						"needs a Micrometer MeterRegistry to record the deltas in: add spring-boot-starter-actuator, "
								+ "or set " + PREFIX + ".enabled=false");
			}
			return meters;
		}

		/**
		 * The counter files of the devices' ports, reading none of them; empty when they
		 * cannot be listed within the read deadline.
		 */
		private static Set<String> listCounters(RdmaBackend backend, Path root, Predicate<String> devices,
				Duration readDeadline) {
			Set<String> listed = new ConcurrentSkipListSet<>();
			HostPortCountersSource source = backend.hostPortCounters(root, devices, (counter) -> {
				listed.add(counter);
				return false;
			}, Duration.ZERO, readDeadline);
			try {
				if (source.snapshot().stall() != null) {
					return Set.of();
				}
			}
			catch (RuntimeException ex) {
				logger.debug("Cannot list the port counters to check the counter names of " + PREFIX, ex);
				return Set.of();
			}
			finally {
				if (source instanceof SysfsHostPortCountersSource sysfs) {
					sysfs.close();
				}
			}
			return new TreeSet<>(listed);
		}

		private static List<String> portCounters(List<String> written, Set<String> listed, Set<String> devices) {
			return counterNames(PREFIX + ".port-counters", written, listed,
					"must be the file name of a port counter such as out_of_sequence, not blank",
					"must be the file name of a counter under counters/ or hw_counters/ of the ports of " + devices
							+ " (the devices of " + PREFIX + ".sets)",
					PREFIX + ".port-counters=" + String.join(",", written) + " cannot be checked: the port "
							+ "counters of " + devices + " could not be listed under rdma.port-counters.sysfs-root "
							+ "within rdma.read-deadline; a name that is no counter file records no delta and counts "
							+ PortCounterDeltaObservationHandler.READ_FAILURES);
		}

		/**
		 * The counter names written under a list property, each once: a blank one or one
		 * the host does not list refused naming its index; where nothing could be listed,
		 * one warning instead.
		 */
		private static List<String> counterNames(String property, List<String> written, Set<String> listed,
				String blank, String unknown, String unchecked) {
			List<String> counters = new ArrayList<>();
			for (int i = 0; i < written.size(); i++) {
				String name = written.get(i);
				if (name == null || name.isBlank()) {
					throw new InvalidConfigurationPropertyValueException(property + "[" + i + "]", name, blank);
				}
				if (!listed.isEmpty() && !listed.contains(name)) {
					throw new InvalidConfigurationPropertyValueException(property + "[" + i + "]", name,
							unknown + "; closest: " + String.join(", ", NameFilter.closest(name, listed, 3)));
				}
				if (!counters.contains(name)) {
					counters.add(name);
				}
			}
			if (listed.isEmpty()) {
				logger.warn(unchecked);
			}
			return counters;
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
						"must name the counter sets to read around each observation, of " + describe(existing)
								+ ", or set " + PREFIX + ".enabled=false");
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
			if (!observations.portCounters().isEmpty()) {
				set.add(PREFIX + ".port-counters=" + String.join(",", observations.portCounters()));
			}
			if (!observations.queuePairCounters().isEmpty()) {
				set.add(PREFIX + ".queue-pair-counters=" + String.join(",", observations.queuePairCounters()));
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
	 * Matches when {@code rdma.observations.port-counters} names a counter.
	 */
	static final class OnPortCounters extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			List<String> counters = Binder.get(context.getEnvironment())
				.bind(PREFIX + ".port-counters", Bindable.listOf(String.class))
				.orElse(List.of());
			return new ConditionOutcome(!counters.isEmpty(), PREFIX + ".port-counters=" + counters);
		}

	}

	/**
	 * Matches when {@code rdma.observations.queue-pair-counters} names a counter.
	 */
	static final class OnQueuePairCounters extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			List<String> counters = Binder.get(context.getEnvironment())
				.bind(PREFIX + ".queue-pair-counters", Bindable.listOf(String.class))
				.orElse(List.of());
			return new ConditionOutcome(!counters.isEmpty(), PREFIX + ".queue-pair-counters=" + counters);
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

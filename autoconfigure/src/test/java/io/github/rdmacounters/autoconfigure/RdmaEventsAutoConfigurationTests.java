package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import io.github.rdmacounters.actuate.endpoint.PortDescriptor;
import io.github.rdmacounters.actuate.endpoint.RdmaEndpoint;
import io.github.rdmacounters.autoconfigure.event.RdmaEventsAutoConfiguration;
import io.github.rdmacounters.autoconfigure.health.RdmaHealthContributorAutoConfiguration;
import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.ManagedDeviceFactory;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.SupervisedDevice;
import io.github.rdmacounters.event.RdmaDeviceEvent;
import io.github.rdmacounters.event.RdmaDeviceFatalEvent;
import io.github.rdmacounters.event.RdmaEventPublisher;
import io.github.rdmacounters.event.RdmaPortStateChangedEvent;
import io.github.rdmacounters.metrics.RdmaEventMetrics;
import io.github.rdmacounters.netlink.MonitorEventActions;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedBackendControl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link RdmaEventsAutoConfiguration} on the simulated backend, whose events
 * are delivered before the raising call returns.
 *
 * @author rdma-counters
 */
class RdmaEventsAutoConfigurationTests {

	private static final String DEVICE = "sim_mlx5_0";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class,
				RdmaHealthContributorAutoConfiguration.class, RdmaEventsAutoConfiguration.class))
		.withUserConfiguration(Recorder.class)
		.withPropertyValues("rdma.backend=simulated", "rdma.counter-sets.roce.flow.protocol=udp",
				"rdma.counter-sets.roce.flow.destination-port=4791");

	@Test
	void portErrPublishesPortStateChangedEventAndHealthIsDownWithoutAQuery() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RdmaEventPublisher.class);
			SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
			HealthIndicator health = deviceHealth(context);
			assertThat(health.health().getStatus()).isEqualTo(Status.UP);
			backend.setPortState(DEVICE, 1, PortState.DOWN);
			SimulatedBackendControl.of(backend).clearVerbCalls();
			Health down = health.health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(down.getDetails().get("portStates")).asInstanceOf(InstanceOfAssertFactories.MAP)
				.extractingByKey("1")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("state", "DOWN")
				.containsEntry("source", "IBV_EVENT_PORT_ERR")
				.containsKey("changedAt");
			assertThat(down.getDetails().get("reason")).asString().startsWith("Port 1 is DOWN (IBV_EVENT_PORT_ERR at ");
			assertThat(SimulatedBackendControl.of(backend).verbCalls()).doesNotContain("ibv_query_port");
			List<ApplicationEvent> events = context.getBean(Recorder.class).events;
			assertThat(events).filteredOn(RdmaPortStateChangedEvent.class::isInstance)
				.singleElement()
				.satisfies((event) -> {
					RdmaPortStateChangedEvent changed = (RdmaPortStateChangedEvent) event;
					assertThat(changed.getPort()).isEqualTo(1);
					assertThat(changed.getState()).isEqualTo(PortState.DOWN);
					assertThat(changed.getDevice().name()).isEqualTo(DEVICE);
				});
			backend.setPortState(DEVICE, 1, PortState.ACTIVE);
			assertThat(health.health().getStatus()).isEqualTo(Status.UP);
			assertThat(events).filteredOn(RdmaPortStateChangedEvent.class::isInstance).hasSize(2);
		});
	}

	@Test
	void endpointShowsTheEventStateAndCountsOfThePort() {
		this.contextRunner.run((context) -> {
			SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
			RdmaEndpoint endpoint = new RdmaEndpoint(context.getBean(RdmaRegistry.class));
			assertThat(endpoint.rdma().devices().get(DEVICE).ports().get(1).stateChangedAt()).isNull();
			backend.setPortState(DEVICE, 1, PortState.DOWN);
			backend.setPortState(DEVICE, 1, PortState.ACTIVE);
			backend.setPortState(DEVICE, 1, PortState.DOWN);
			PortDescriptor port = endpoint.rdma().devices().get(DEVICE).ports().get(1);
			assertThat(port.state()).isEqualTo("DOWN");
			assertThat(port.stateChangedAt()).isNotNull();
			assertThat(port.events()).containsEntry("port_err", 2L).containsEntry("port_active", 1L);
		});
	}

	@Test
	void reopenBackoffPropertiesReachEveryManagedDeviceAlsoWithEventsDisabled() {
		this.contextRunner
			.withPropertyValues("rdma.events.enabled=false", "rdma.events.reopen-backoff.initial=250ms",
					"rdma.events.reopen-backoff.max=5s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RdmaRegistry.class).devices()).extracting(ManagedDevice::name)
					.containsExactly(DEVICE);
				for (ManagedDevice device : context.getBean(RdmaRegistry.class).devices()) {
					assertThat(device.device()).isInstanceOfSatisfying(SupervisedDevice.class, (supervised) -> {
						assertThat(supervised.initialBackoff()).isEqualTo(Duration.ofMillis(250));
						assertThat(supervised.maxBackoff()).isEqualTo(Duration.ofSeconds(5));
					});
				}
			});
	}

	@Test
	void withoutReopenBackoffPropertiesTheFactoryDefaultsApply() {
		this.contextRunner.run((context) -> {
			SupervisedDevice device = (SupervisedDevice) context.getBean(RdmaRegistry.class).device(DEVICE).device();
			assertThat(device.initialBackoff()).isEqualTo(ManagedDeviceFactory.DEFAULT_REOPEN_INITIAL_BACKOFF);
			assertThat(device.maxBackoff()).isEqualTo(ManagedDeviceFactory.DEFAULT_REOPEN_MAX_BACKOFF);
		});
	}

	@Test
	void deviceFatalPublishesDeviceFatalEventAndHealthIsDownWithTheReason() {
		this.contextRunner.withPropertyValues("rdma.port-counters.enabled=false").run((context) -> {
			SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
			backend.removeDevice(DEVICE);
			assertThat(context.getBean(Recorder.class).events).filteredOn(RdmaDeviceFatalEvent.class::isInstance)
				.singleElement()
				.satisfies((event) -> assertThat(((RdmaDeviceFatalEvent) event).getEvent().type())
					.isEqualTo(DeviceEvent.Type.DEVICE_FATAL));
			Health health = deviceHealth(context).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat((String) health.getDetails().get("reason")).contains("IBV_EVENT_DEVICE_FATAL");
		});
	}

	@Test
	void portDownReadinessRefusesTrafficWhileTheCountedPortIsDown() {
		this.contextRunner.withPropertyValues("rdma.events.port-down-readiness=refuse-traffic").run((context) -> {
			SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
			List<ApplicationEvent> events = context.getBean(Recorder.class).events;
			backend.setPortState(DEVICE, 1, PortState.DOWN);
			backend.setPortState(DEVICE, 1, PortState.ACTIVE);
			assertThat(events).filteredOn(AvailabilityChangeEvent.class::isInstance)
				.extracting((event) -> (Object) ((AvailabilityChangeEvent<?>) event).getState())
				.containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);
		});
	}

	@Test
	void readinessIsLeftAloneByDefault() {
		this.contextRunner.run((context) -> {
			SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
			backend.setPortState(DEVICE, 1, PortState.DOWN);
			List<ApplicationEvent> events = context.getBean(Recorder.class).events;
			assertThat(events).as("the port went down").anyMatch(RdmaPortStateChangedEvent.class::isInstance);
			assertThat(events).noneMatch(AvailabilityChangeEvent.class::isInstance);
		});
	}

	@Test
	void aDeviceRegisteredAgainIsReopenedAtOnceInsteadOfAfterItsBackoff() {
		this.contextRunner
			.withPropertyValues("rdma.events.reopen-backoff.initial=1h", "rdma.events.reopen-backoff.max=1h")
			.run((context) -> {
				assertThat(context).hasSingleBean(MonitorEventActions.class);
				SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
				SupervisedDevice device = (SupervisedDevice) context.getBean(RdmaRegistry.class)
					.device(DEVICE)
					.device();
				backend.removeDevice(DEVICE);
				assertThat(device.failure()).isNotNull();
				// the simulator's monitor sends RDMA_REGISTER_EVENT: no hour-long wait
				backend.restoreDevice(DEVICE);
				Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> device.failure() == null);
				assertThat(device.tracker().reopens()).isEqualTo(1);
			});
	}

	@Test
	void monitorCanBeTurnedOff() {
		this.contextRunner
			.withPropertyValues("rdma.events.monitor.enabled=false", "rdma.events.reopen-backoff.initial=1h",
					"rdma.events.reopen-backoff.max=1h")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(MonitorEventActions.class);
				SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
				SupervisedDevice device = (SupervisedDevice) context.getBean(RdmaRegistry.class)
					.device(DEVICE)
					.device();
				backend.removeDevice(DEVICE);
				backend.restoreDevice(DEVICE);
				assertThat(device.failure()).as("still in its first wait of an hour").isNotNull();
			});
	}

	@Test
	void runWhenDisabledCreatesNoPublisher() {
		this.contextRunner.withPropertyValues("rdma.events.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RdmaEventPublisher.class)
				.doesNotHaveBean(RdmaEventMetrics.class));
	}

	@Test
	void eventsAreCountedByDevicePortAndType() {
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			assertThat(context).hasSingleBean(RdmaEventMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			context.getBean(RdmaEventMetrics.class).bindTo(registry);
			SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
			backend.setPortState(DEVICE, 1, PortState.DOWN);
			backend.raiseEvent(DEVICE, DeviceEvent.Type.GID_CHANGE, 1);
			assertThat(registry.get(RdmaEventMetrics.EVENTS)
				.tags("device", DEVICE, "port", "1", "event", "port_err")
				.functionCounter()
				.count()).isEqualTo(1);
			assertThat(registry.get(RdmaEventMetrics.EVENTS)
				.tags("device", DEVICE, "port", "1", "event", "gid_change")
				.functionCounter()
				.count()).isEqualTo(1);
			assertThat(registry.get(RdmaEventMetrics.EVENTS)
				.tags("device", DEVICE, "port", "1", "event", "port_active")
				.functionCounter()
				.count()).isZero();
			assertThat(registry.get(RdmaEventMetrics.LAST_STATE_CHANGE).timeGauge().value()).isPositive();
		});
	}

	@Test
	void aListenerOfRdmaDeviceEventReceivesPortStateChangesAndDeviceFatal() {
		this.contextRunner.withUserConfiguration(DeviceEventRecorder.class)
			.withPropertyValues("rdma.port-counters.enabled=false")
			.run((context) -> {
				SimulatedBackend backend = (SimulatedBackend) context.getBean(RdmaBackend.class);
				backend.setPortState(DEVICE, 1, PortState.DOWN);
				backend.removeDevice(DEVICE);
				assertThat(context.getBean(DeviceEventRecorder.class).events)
					.extracting((event) -> event.getClass(), (event) -> event.getDevice().name())
					.containsExactly(tuple(RdmaPortStateChangedEvent.class, DEVICE),
							tuple(RdmaDeviceFatalEvent.class, DEVICE));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Recorder implements ApplicationListener<ApplicationEvent> {

		final List<ApplicationEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			this.events.add(event);
		}

	}

	private static HealthIndicator deviceHealth(ApplicationContext context) {
		CompositeHealthContributor rdma = context.getBean("rdmaHealthContributor", CompositeHealthContributor.class);
		return (HealthIndicator) rdma.getContributor(DEVICE);
	}

	static class DeviceEventRecorder {

		final List<RdmaDeviceEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void onDeviceEvent(RdmaDeviceEvent event) {
			this.events.add(event);
		}

	}

}

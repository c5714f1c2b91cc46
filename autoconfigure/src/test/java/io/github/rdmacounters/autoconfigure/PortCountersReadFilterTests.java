package io.github.rdmacounters.autoconfigure;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.sysfs.CountingSysfsTree;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rdma.port-counters.include} and {@code exclude} narrow the reads of the host's
 * port counters, not only the meters: a file they leave out is never opened (on mlx5 each
 * read of a PMA counter is a MAD to the firmware).
 */
class PortCountersReadFilterTests {

	private static final String PORT = "sim_mlx5_0/ports/1/";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class));

	@Test
	void anIncludeOfTheCountersDirectoryMeansNoOtherCounterFileIsRead() {
		CountingBackend backend = new CountingBackend();
		this.contextRunner.withBean(RdmaBackend.class, () -> backend)
			.withPropertyValues(
					"rdma.port-counters.include=port_*,symbol_error,link_*,local_link_integrity_errors,"
							+ "excessive_buffer_overrun_errors,VL15_dropped,multicast_*,unicast_*",
					"rdma.port-counters.exclude=port_xmit_wait")
			.run((context) -> {
				PortStatus port = context.getBean(HostPortCountersSource.class).snapshot().device("sim_mlx5_0").port(1);
				assertThat(port.counters()).containsKeys("port_rcv_data", "symbol_error", "unicast_xmit_packets")
					.doesNotContainKeys("port_xmit_wait", "out_of_buffer");
				Map<String, Long> reads = backend.tree.reads();
				assertThat(reads).containsKeys(PORT + "counters/port_rcv_data", PORT + "state")
					.doesNotContainKeys(PORT + "counters/port_xmit_wait");
				assertThat(reads.keySet()).as("no file of hw_counters/ is opened")
					.noneMatch((path) -> path.startsWith(PORT + "hw_counters/"));
				assertThat(reads.keySet()).filteredOn((path) -> path.startsWith(PORT + "counters/")).hasSize(20);
			});
	}

	@Test
	void withoutIncludeEveryCounterFileIsRead() {
		CountingBackend backend = new CountingBackend();
		this.contextRunner.withBean(RdmaBackend.class, () -> backend).run((context) -> {
			context.getBean(HostPortCountersSource.class).snapshot();
			assertThat(backend.tree.reads()).containsKeys(PORT + "counters/port_xmit_wait",
					PORT + "hw_counters/out_of_buffer");
		});
	}

	@Test
	void openingTheDevicesOfCounterSetsReadsNoPortCounterFile() {
		CountingBackend backend = new CountingBackend();
		this.contextRunner.withBean(RdmaBackend.class, () -> backend)
			.withPropertyValues("rdma.counter-sets.storage.device=sim_mlx5_0",
					"rdma.counter-sets.storage.flow.protocol=tcp",
					"rdma.counter-sets.storage.flow.destination-port=4420")
			.run((context) -> {
				ManagedDevice device = context.getBean(RdmaRegistry.class).devices().get(0);
				assertThat(backend.tree.reads()).as("the devices are listed, not read").isEmpty();
				assertThat(device.portCounters()).isNotNull();
				assertThat(device.portCounters().snapshot().port(1).counters()).containsKey("port_rcv_data");
			});
	}

	@Test
	void aDeviceTheDeviceFilterLeavesOutHasNoPortCounters() {
		this.contextRunner.withBean(RdmaBackend.class, CountingBackend::new)
			.withPropertyValues("rdma.counter-sets.storage.device=sim_mlx5_0",
					"rdma.counter-sets.storage.flow.protocol=tcp",
					"rdma.counter-sets.storage.flow.destination-port=4420",
					"rdma.port-counters.devices.exclude=sim_mlx5_0")
			.run((context) -> assertThat(context.getBean(RdmaRegistry.class).devices().get(0).portCounters()).isNull());
	}

	/**
	 * The simulated backend whose host port counters are read through a counting tree.
	 */
	static final class CountingBackend implements RdmaBackend {

		private final SimulatedBackend simulated = SimulatedBackend.withDefaultDevice();

		final CountingSysfsTree tree = new CountingSysfsTree(this.simulated.sysfsTree());

		@Override
		public String name() {
			return this.simulated.name();
		}

		@Override
		public List<DeviceId> devices() {
			return this.simulated.devices();
		}

		@Override
		public RdmaDevice open(String deviceName) {
			return this.simulated.open(deviceName);
		}

		@Override
		public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
			return this.simulated.portCounters(deviceName, sysfsRoot, readCacheTtl);
		}

		@Override
		public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
				Predicate<String> counterFilter, Duration readCacheTtl) {
			return new SysfsHostPortCountersSource(this.tree, deviceFilter, counterFilter, readCacheTtl,
					Clock.systemUTC());
		}

	}

}

package io.github.rdmacounters.core;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.ScriptedDevice;
import io.github.rdmacounters.testsupport.ScriptedDevice.ScriptedCounters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link SupervisedCounters} on a {@link SupervisedDevice} whose contexts are
 * {@link ScriptedDevice}s: a test chooses when the device is present again, and runs a
 * hook inside a counters read or a flow creation, where the other thread of a race would
 * come in.
 *
 * @author rdma-counters
 */
class SupervisedCountersTests {

	private static final String DEVICE = "mlx5_0";

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final Map<CounterType, Integer> PACKETS = Map.of(CounterType.PACKETS, 0);

	private final FakeBackend backend = new FakeBackend();

	private SupervisedDevice device;

	@AfterEach
	void closeDevice() {
		if (this.device != null) {
			this.device.close();
		}
	}

	@Test
	void readThatTheDeviceFailsUnderIsCarriedForwardByTheReopen() {
		ScriptedDevice first = this.backend.present();
		Counters counters = open().createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		ScriptedCounters handle = first.counters().get(0);
		handle.add(10, 0);
		assertThat(packets(counters)).isEqualTo(10);
		handle.add(15, 0);
		// the device fails while the read is in the native call: unbind() runs before
		// the read records what it returns
		handle.beforeRead(() -> this.device.fail("a failure in another thread", null));
		assertThat(packets(counters)).isEqualTo(25);
		ScriptedDevice second = this.backend.present();
		awaitReopen();
		assertThat(second.counters()).hasSize(1);
		assertThat(packets(counters)).as("read after the reopen").isEqualTo(25);
		second.counters().get(0).add(3, 0);
		assertThat(packets(counters)).isEqualTo(28);
	}

	@Test
	void setClosedWhileTheReopenRecreatesItsFlowClosesTheNewCounters() {
		this.backend.present();
		Counters counters = open().createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		this.device.fail("a failure", null);
		ScriptedDevice second = context();
		// the application closes the set while install() recreates its flow
		second.beforeCreateFlow(counters::close);
		this.backend.present(second);
		awaitReopen();
		assertThat(counters.isClosed()).isTrue();
		assertThat(counters.isBound()).isFalse();
		assertThat(second.counters()).hasSize(1);
		ScriptedCounters handle = second.counters().get(0);
		assertThat(handle.flows()).hasSize(1).allSatisfy((flow) -> assertThat(flow.isClosed()).isTrue());
		assertThat(handle.isClosed()).as("counters of the closed set on the new context").isTrue();
	}

	@Test
	void readOfASetWhoseDeviceClosedWhileFailedFailsAsClosed() {
		// a shutdown while the device is reopened: the set is unbound, not closed,
		// what a reader saw that read the closed flag before close() and the binding
		// after it
		this.backend.present();
		Counters counters = open().createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		CounterSet set = counterSet(counters);
		this.device.fail("a failure", null);
		this.device.close();
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> packets(counters));
		CounterSetReading reading = set.read();
		assertThat(reading.isClosed()).isTrue();
		assertThat(set.failedReads()).as("a read after shutdown is no failed read").isZero();
	}

	@Test
	void readOfASetWhoseDeviceClosesUnderItFailsAsClosed() {
		ScriptedDevice first = this.backend.present();
		Counters counters = open().createSupervisedCounters(1, FlowSpec.any(), PACKETS);
		CounterSet set = counterSet(counters);
		// the device closes its context after the set's checks; the handle refuses the
		// read as a native one does once its context is gone (NativeCounters.ensureOpen)
		first.counters().get(0).beforeRead(() -> {
			this.device.close();
			throw new RdmaClosedException("Counters on " + DEVICE);
		});
		assertThatExceptionOfType(RdmaClosedException.class).isThrownBy(() -> packets(counters));
		assertThat(set.read().isClosed()).isTrue();
		assertThat(set.failedReads()).as("a read racing the shutdown is no failed read").isZero();
		assertThat(this.device.failure()).as("a shutdown is no failure").isNull();
	}

	private SupervisedDevice open() {
		this.device = SupervisedDevice.open(this.backend, DEVICE, Duration.ofMillis(1), Duration.ofMillis(10),
				Duration.ZERO, Clock.systemUTC());
		return this.device;
	}

	private void awaitReopen() {
		Awaitility.await("the reopen of " + DEVICE)
			.atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(2))
			.until(() -> this.device.tracker().reopens() > 0);
	}

	private static CounterSet counterSet(Counters counters) {
		return new CounterSet("set", DEVICE, 1, FlowSpec.any(), PACKETS, ReadMode.FRESH, counters, Duration.ZERO,
				Clock.systemUTC());
	}

	private static long packets(Counters counters) {
		return counters.read(ReadMode.FRESH).values()[0];
	}

	private static ScriptedDevice context() {
		return new ScriptedDevice(DEVICE, "fake");
	}

	/**
	 * A backend whose device is present while a test has offered a context for the next
	 * open.
	 */
	private static final class FakeBackend implements RdmaBackend {

		private final Queue<ScriptedDevice> contexts = new ConcurrentLinkedQueue<>();

		ScriptedDevice present() {
			return present(context());
		}

		ScriptedDevice present(ScriptedDevice context) {
			this.contexts.add(context);
			return context;
		}

		@Override
		public String name() {
			return "fake";
		}

		@Override
		public List<DeviceId> devices() {
			return this.contexts.isEmpty() ? List.of() : List.of(new DeviceId(DEVICE, 1));
		}

		@Override
		public RdmaDevice open(String deviceName) {
			ScriptedDevice context = this.contexts.poll();
			if (context == null) {
				throw new DeviceNotFoundException(deviceName, List.of());
			}
			return context;
		}

		@Override
		public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
				Predicate<String> counterFilter, Duration readCacheTtl) {
			throw new UnsupportedOperationException();
		}

	}

}

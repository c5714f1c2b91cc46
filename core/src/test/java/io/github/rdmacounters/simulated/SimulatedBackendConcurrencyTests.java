package io.github.rdmacounters.simulated;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.RdmaClosedException;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.ReadMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SimulatedBackend} under concurrent traffic, reads and close.
 */
class SimulatedBackendConcurrencyTests {

	private static final String DEVICE = SimulatedDeviceSpec.DEFAULT_NAME;

	private final SimulatedBackend backend = SimulatedBackend.withDefaultDevice();

	private final ExecutorService executor = Executors.newFixedThreadPool(6);

	@AfterEach
	void shutdown() throws InterruptedException {
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	private static Packet packet(int length) throws Exception {
		return Packet.udp(InetAddress.getByName("10.0.0.1"), 1000, InetAddress.getByName("10.0.0.2"),
				Packet.ROCE_V2_PORT, length);
	}

	@RepeatedTest(5)
	void readsRacingDeviceCloseEitherSucceedOrFailWithClosedException() throws Exception {
		RdmaDevice device = this.backend.open(DEVICE);
		Counters counters = device.createCounters();
		counters.attach(CounterType.PACKETS, 0);
		counters.attach(CounterType.BYTES, 1);
		device.createFlow(1, FlowSpec.any(), counters);
		Packet packet = packet(100);
		CountDownLatch started = new CountDownLatch(4);
		AtomicLong successfulReads = new AtomicLong();
		List<Future<Throwable>> readers = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			readers.add(this.executor.submit(() -> {
				long[] values = new long[2];
				started.countDown();
				long previous = 0;
				try {
					while (true) {
						counters.read(values, ReadMode.FRESH);
						assertThat(values[0]).isGreaterThanOrEqualTo(previous);
						assertThat(values[1]).isEqualTo(values[0] * 100);
						previous = values[0];
						successfulReads.incrementAndGet();
					}
				}
				catch (Throwable ex) {
					return ex;
				}
			}));
		}
		Future<Throwable> traffic = this.executor.submit(() -> {
			try {
				while (!Thread.currentThread().isInterrupted()) {
					this.backend.deliver(DEVICE, 1, packet);
				}
				return null;
			}
			catch (Throwable ex) {
				return ex;
			}
		});
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		Thread.sleep(20);
		device.close();
		for (Future<Throwable> reader : readers) {
			assertThat(reader.get(10, TimeUnit.SECONDS)).isInstanceOf(RdmaClosedException.class);
		}
		traffic.cancel(true);
		assertThat(successfulReads.get()).isPositive();
		assertThat(counters.isClosed()).isTrue();
		assertThat(this.backend.liveObjects()).as(this.backend.liveObjectDescriptions().toString()).isZero();
	}

	@RepeatedTest(5)
	void countersCloseRacingDeviceCloseFreesEverythingOnce() throws Exception {
		RdmaDevice device = this.backend.open(DEVICE);
		List<Counters> handles = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			device.createFlow(1, FlowSpec.any(), counters);
			handles.add(counters);
		}
		CountDownLatch go = new CountDownLatch(1);
		List<Future<?>> closers = new ArrayList<>();
		for (Counters counters : handles) {
			closers.add(this.executor.submit(() -> {
				go.await();
				counters.close();
				return null;
			}));
		}
		closers.add(this.executor.submit(() -> {
			go.await();
			device.close();
			return null;
		}));
		go.countDown();
		for (Future<?> closer : closers) {
			closer.get(10, TimeUnit.SECONDS);
		}
		assertThat(handles).allSatisfy((counters) -> assertThat(counters.isClosed()).isTrue());
		assertThat(this.backend.liveObjects()).as(this.backend.liveObjectDescriptions().toString()).isZero();
	}

	@Test
	void trafficFromSeveralThreadsIsCountedExactly() throws Exception {
		try (RdmaDevice device = this.backend.open(DEVICE)) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			counters.attach(CounterType.BYTES, 1);
			device.createFlow(1, FlowSpec.any(), counters);
			Packet packet = packet(64);
			List<Future<?>> senders = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				senders.add(this.executor.submit(() -> {
					for (int n = 0; n < 5_000; n++) {
						this.backend.deliver(DEVICE, 1, packet);
						counters.read(ReadMode.PREFER_CACHED);
					}
				}));
			}
			for (Future<?> sender : senders) {
				sender.get(30, TimeUnit.SECONDS);
			}
			assertThat(counters.read(ReadMode.FRESH).values()).containsExactly(20_000, 20_000 * 64);
			assertThat(this.backend.portCounters(DEVICE).snapshot().port(1).counters())
				.containsEntry("port_rcv_packets", 20_000L)
				.containsEntry("port_rcv_data", 20_000L * 64);
		}
	}

}

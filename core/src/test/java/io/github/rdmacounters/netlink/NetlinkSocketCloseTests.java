package io.github.rdmacounters.netlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.RdmaClosedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Closing a netlink socket while another thread runs a request on it, against the fake
 * RDMA netlink kernel, many rounds: the request ends at once with
 * {@link RdmaClosedException} (never an {@code EBADF} from a number closed under it, nor
 * a read of a file that reused the number), and the descriptor is closed.
 *
 * @author rdma-counters
 */
class NetlinkSocketCloseTests {

	private static final NetlinkRequest SYS_GET = NetlinkRequest
		.builder(RdmaNldev.type(NldevMonitor.CMD_SYS_GET), "RDMA_NLDEV_CMD_SYS_GET")
		.build();

	private final FakeNldev fake = FakeNldev.get();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeEach
	void setUp() {
		this.fake.reset();
	}

	@AfterEach
	void tearDown() throws InterruptedException {
		this.threads.shutdownNow();
		this.fake.reset();
	}

	@Test
	void closeWhileAnotherThreadIsInRecvEndsTheRequestAtOnceAndClosesTheSocket() {
		long openFiles = openFiles();
		for (int round = 0; round < 50; round++) {
			long open = this.fake.count("open");
			// the fake receives the request and never answers: the requester waits in
			// recv
			this.fake.inject("silent");
			NetlinkSocket socket = this.fake.connect(Duration.ofSeconds(60));
			long requests = this.fake.count("requests");
			CompletableFuture<RuntimeException> request = CompletableFuture.supplyAsync(() -> failure(socket),
					this.threads);
			await("the request sent").atMost(Duration.ofSeconds(10))
				.until(() -> this.fake.count("requests") > requests);
			socket.close();
			assertThat(request).as("the request of round %d, 5 s after close (its reply timeout is 60 s)", round)
				.succeedsWithin(Duration.ofSeconds(5))
				.isInstanceOf(RdmaClosedException.class);
			assertThat(socket.isClosed()).isTrue();
			// at most as many as before: a socket of an earlier test may close meanwhile
			await("the fake sees the socket closed").atMost(Duration.ofSeconds(10))
				.until(() -> this.fake.count("open"), (now) -> now <= open);
		}
		assertThat(openFiles()).as("open files, within a few of the %d before", openFiles)
			.isLessThanOrEqualTo(openFiles + 5);
	}

	@Test
	void closeRacingRequestsEndsThemOnlyWithRdmaClosedException() throws Exception {
		long openFiles = openFiles();
		long open = this.fake.count("open");
		for (int round = 0; round < 300; round++) {
			NetlinkSocket socket = this.fake.connect(Duration.ofSeconds(10));
			CountDownLatch answered = new CountDownLatch(1);
			Future<RuntimeException> requests = this.threads.submit(() -> {
				while (true) {
					try {
						socket.exchange(SYS_GET);
						answered.countDown();
					}
					catch (RuntimeException ex) {
						return ex;
					}
				}
			});
			assertThat(answered.await(10, TimeUnit.SECONDS)).as("a first answer").isTrue();
			LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(200_000));
			socket.close();
			assertThat(requests.get(10, TimeUnit.SECONDS)).as("how the requests of round %d ended", round)
				.isInstanceOf(RdmaClosedException.class);
		}
		// at most as many as before: a socket of an earlier test may close meanwhile
		await("the fake sees every socket closed").atMost(Duration.ofSeconds(10))
			.until(() -> this.fake.count("open"), (now) -> now <= open);
		assertThat(openFiles()).as("open files, within a few of the %d before", openFiles)
			.isLessThanOrEqualTo(openFiles + 5);
	}

	private static RuntimeException failure(NetlinkSocket socket) {
		try {
			socket.exchange(SYS_GET);
			return new IllegalStateException("The silent fake answered");
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	private static long openFiles() {
		try (Stream<Path> files = Files.list(Path.of("/proc/self/fd"))) {
			return files.count();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

package io.github.rdmacounters.netlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

	/**
	 * The fake names 64 connections at most: sockets left open fill its table, and it
	 * does not name those opened after.
	 */
	private static final String SERVED = "the fake serves (names) the socket of round %d";

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
			// the fake receives the request and never answers: the requester waits in
			// recv
			this.fake.inject("silent");
			// the socket is named by its inode: the fake is shared with the threads other
			// tests left, which open and close connections meanwhile, so its count of
			// open connections could fall though this socket leaked, or never fall back
			List<Long> inodes = new ArrayList<>(1);
			NetlinkSocket socket = this.fake.connect(Duration.ofSeconds(60), inodes::add);
			long own = inodes.get(0);
			assertThat(this.fake.serves(own)).as(SERVED, round).isTrue();
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
			await("the fake sees the socket of round " + round + " closed").atMost(Duration.ofSeconds(10))
				.until(() -> !this.fake.serves(own));
		}
		assertThat(openFiles()).as("open files, within a few of the %d before", openFiles)
			.isLessThanOrEqualTo(openFiles + 5);
	}

	@Test
	void closeRacingRequestsEndsThemOnlyWithRdmaClosedException() throws Exception {
		long openFiles = openFiles();
		for (int round = 0; round < 300; round++) {
			// the socket is named by its inode: the fake is shared with the threads other
			// tests left, which open and close connections meanwhile, so its count of
			// open connections could fall though this socket leaked, or never fall back
			List<Long> inodes = new ArrayList<>(1);
			NetlinkSocket socket = this.fake.connect(Duration.ofSeconds(10), inodes::add);
			long own = inodes.get(0);
			assertThat(this.fake.serves(own)).as(SERVED, round).isTrue();
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
			// each round, not once at the end: the fake names 64 connections at most
			await("the fake sees the socket of round " + round + " closed").atMost(Duration.ofSeconds(10))
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(1))
				.until(() -> !this.fake.serves(own));
		}
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

package io.github.rdmacounters.metrics;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PortCountersSnapshot;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.sysfs.FileSystemSysfsTree;
import io.github.rdmacounters.sysfs.SysfsFixtures;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsTree;
import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A counter file that cannot be read or parsed has no value (NaN) and is named and
 * counted, never served with an earlier value; an unsigned 64-bit value keeps its
 * magnitude. Stated once and run on a sysfs tree on the file system and on the simulated
 * backend's tree.
 * <p>
 * On the file system the faults are real: the file's content is replaced, it is made a
 * directory ({@code EISDIR}), a symbolic link to {@code /proc/self/mem} (whose read at
 * offset 0 fails with {@code EIO} for root too, as a driver's failing {@code show} method
 * would; {@code chmod 000} does not stop root) or removed. The simulated tree has no
 * files, so a wrapper serves the same faults as the exceptions the file system tree
 * throws. A read failing with {@code EIO} is one the kernel refuses: the file is read
 * again only after a backoff (see {@code SysfsRefusedFileTests}), so the test moves the
 * snapshots' clock past it before the file answers again.
 *
 * @author rdma-counters
 */
class UnreadableCounterFilesTests {

	private static final String PORT = "ports/1/";

	private static final String FILE = "hw_counters/out_of_buffer";

	private static final String METER = PortCountersMetrics.KNOWN_COUNTERS.get(FILE).meterName();

	enum Fault {

		GARBAGE, NEGATIVE, EMPTY, DIRECTORY, READ_ERROR

	}

	static Stream<Arguments> faults() {
		return Stream.of(Fault.values())
			.flatMap((fault) -> Stream.of(Arguments.of("file system", fault), Arguments.of("simulated", fault)));
	}

	static Stream<Arguments> values() {
		return Stream
			.of("0", "9007199254740993", "9223372036854775807", "9223372036854775808", "9223372036854777856",
					"12345678901234567890", "18446744073709551615")
			.flatMap((value) -> Stream.of(Arguments.of("file system", value), Arguments.of("simulated", value)));
	}

	private Host host(String kind, Path temp) {
		return "simulated".equals(kind) ? new SimulatedHost() : new FileSystemHost(temp);
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("faults")
	void anUnreadableFileIsNaNNamedAndCountedUntilItIsReadableAgain(String kind, Fault fault, @TempDir Path temp)
			throws IOException {
		Host host = host(kind, temp);
		Scrape scrape = new Scrape(host);
		assertThat(scrape.counter()).isNotNaN();
		host.write(FILE, "17\n");
		assertThat(scrape.counter()).isEqualTo(17);
		host.fault(FILE, fault);
		for (int i = 1; i <= 3; i++) {
			long before = scrape.source.unreadableReads();
			assertThat(scrape.counter()).as("scrape %d with %s", i, fault).isNaN();
			assertThat(scrape.source.unreadableReads()).as("counted once per read").isEqualTo(before + 1);
			assertThat(scrape.unreadableGauge()).isEqualTo(1);
			assertThat(scrape.port().unreadable()).containsExactly(FILE);
			assertThat(scrape.port().counters()).doesNotContainKey("out_of_buffer");
		}
		host.write(FILE, "18\n");
		// a file whose read the kernel refused (EIO) is read again after its backoff
		scrape.clock.advance(Duration.ofMinutes(1));
		assertThat(scrape.counter()).isEqualTo(18);
		assertThat(scrape.unreadableGauge()).isZero();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("hosts")
	void aFileThatVanishesIsNaNAndMissingUntilItComesBack(String kind, @TempDir Path temp) throws IOException {
		Host host = host(kind, temp);
		Scrape scrape = new Scrape(host);
		host.write(FILE, "17\n");
		assertThat(scrape.counter()).isEqualTo(17);
		host.remove(FILE);
		assertThat(scrape.counter()).isNaN();
		assertThat(scrape.port().missing()).containsExactly(FILE);
		assertThat(scrape.registry.get(PortCountersMetrics.COUNTER_FILES_MISSING).tags(scrape.tags).gauge().value())
			.isEqualTo(1);
		host.write(FILE, "19\n");
		assertThat(scrape.counter()).isEqualTo(19);
	}

	static Stream<String> hosts() {
		return Stream.of("file system", "simulated");
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("values")
	void anUnsigned64BitValueKeepsItsMagnitude(String kind, String value, @TempDir Path temp) throws IOException {
		Host host = host(kind, temp);
		Scrape scrape = new Scrape(host);
		host.write(FILE, value + "\n");
		// BigInteger.doubleValue rounds to the nearest double, as Go's float64(uint64)
		assertThat(scrape.counter()).isEqualTo(new BigInteger(value).doubleValue());
		assertThat(Long.toUnsignedString(scrape.port().counters().get("out_of_buffer"))).isEqualTo(value);
		assertThat(scrape.unreadableGauge()).isZero();
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("wordValues")
	void dataCountersInWordsAreBytesUpTo2To64Minus4(String kind, String words, String bytes, @TempDir Path temp)
			throws IOException {
		Host host = host(kind, temp);
		Scrape scrape = new Scrape(host);
		host.write("counters/port_rcv_data", words + "\n");
		assertThat(scrape.registry.get("rdma.port.data.received").tags(scrape.tags).functionCounter().count())
			.isEqualTo(new BigInteger(bytes).doubleValue());
		assertThat(scrape.unreadableGauge()).isZero();
	}

	static Stream<Arguments> wordValues() {
		return Stream.of(new String[] { "1", "4" }, new String[] { "4611686018427387903", "18446744073709551612" })
			.flatMap((pair) -> Stream.of(Arguments.of("file system", pair[0], pair[1]),
					Arguments.of("simulated", pair[0], pair[1])));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("wordsPastBytes")
	void dataCountersInWordsPast64BitsOfBytesAreUnreadableNotClamped(String kind, String words, @TempDir Path temp)
			throws IOException {
		Host host = host(kind, temp);
		Scrape scrape = new Scrape(host);
		host.write("counters/port_rcv_data", words + "\n");
		assertThat(scrape.registry.get("rdma.port.data.received").tags(scrape.tags).functionCounter().count()).isNaN();
		assertThat(scrape.port().unreadable()).contains("counters/port_rcv_data");
		assertThat(scrape.unreadableGauge()).isEqualTo(1);
	}

	static Stream<Arguments> wordsPastBytes() {
		return Stream.of("4611686018427387904", "18446744073709551615")
			.flatMap((words) -> Stream.of(Arguments.of("file system", words), Arguments.of("simulated", words)));
	}

	/**
	 * The port counters meters of one device over a host's tree, scraped as a test asks.
	 */
	private static final class Scrape {

		private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

		private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T08:00:00Z"));

		private final SysfsHostPortCountersSource source;

		private final String device;

		private final Tags tags;

		Scrape(Host host) {
			this.device = host.device();
			this.source = new SysfsHostPortCountersSource(host.tree(), NameFilter.all(), NameFilter.all(),
					Duration.ZERO, this.clock);
			new PortCountersMetrics(this.source, NameFilter.all(), List.of()).bindTo(this.registry);
			this.tags = Tags.of("device", this.device, "port", "1");
		}

		double counter() {
			return this.registry.get(METER).tags(this.tags).functionCounter().count();
		}

		double unreadableGauge() {
			return this.registry.get(PortCountersMetrics.UNREADABLE).tags(this.tags).gauge().value();
		}

		PortStatus port() {
			PortCountersSnapshot snapshot = this.source.device(this.device).snapshot();
			PortStatus port = snapshot.port(1);
			assertThat(port).isNotNull();
			return port;
		}

	}

	/** A sysfs tree whose counter files of port 1 of one device a test can change. */
	private interface Host {

		String device();

		SysfsTree tree();

		void write(String file, String content) throws IOException;

		void fault(String file, Fault fault) throws IOException;

		void remove(String file) throws IOException;

	}

	private static final class FileSystemHost implements Host {

		private final Path port;

		private final FileSystemSysfsTree tree;

		FileSystemHost(Path temp) {
			Path root = SysfsFixtures.copy("mlx5-roce", temp);
			this.port = root.resolve("mlx5_1/" + PORT);
			this.tree = new FileSystemSysfsTree(root);
		}

		@Override
		public String device() {
			return "mlx5_1";
		}

		@Override
		public SysfsTree tree() {
			return this.tree;
		}

		@Override
		public void write(String file, String content) throws IOException {
			remove(file);
			Files.writeString(this.port.resolve(file), content);
		}

		@Override
		public void fault(String file, Fault fault) throws IOException {
			Path path = this.port.resolve(file);
			switch (fault) {
				case GARBAGE -> Files.writeString(path, "garbage\n");
				case NEGATIVE -> Files.writeString(path, "-3\n");
				case EMPTY -> Files.writeString(path, "");
				case DIRECTORY -> {
					Files.delete(path);
					Files.createDirectory(path);
				}
				case READ_ERROR -> {
					Files.delete(path);
					Files.createSymbolicLink(path, Path.of("/proc/self/mem"));
				}
			}
		}

		@Override
		public void remove(String file) throws IOException {
			Path path = this.port.resolve(file);
			if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
				Files.delete(path);
			}
			Files.deleteIfExists(path);
		}

	}

	/**
	 * The simulated backend's tree with files of port 1 replaced: by content, by the
	 * exceptions {@link FileSystemSysfsTree} throws for a directory ({@code EISDIR}) and
	 * a failed read ({@code EIO}), or removed.
	 */
	private static final class SimulatedHost implements Host, SysfsTree {

		private static final String DEVICE = "sim_mlx5_0";

		private final SysfsTree tree = SimulatedBackend.withDefaultDevice().sysfsTree();

		private final Map<String, Object> replaced = new ConcurrentHashMap<>();

		@Override
		public String device() {
			return DEVICE;
		}

		@Override
		public SysfsTree tree() {
			return this;
		}

		@Override
		public void write(String file, String content) {
			this.replaced.put(DEVICE + "/" + PORT + file, content);
		}

		@Override
		public void fault(String file, Fault fault) {
			String path = DEVICE + "/" + PORT + file;
			this.replaced.put(path, switch (fault) {
				case GARBAGE -> "garbage\n";
				case NEGATIVE -> "-3\n";
				case EMPTY -> "";
				case DIRECTORY -> new IOException(path + ": Is a directory");
				case READ_ERROR -> new IOException(path + ": Input/output error");
			});
		}

		@Override
		public void remove(String file) {
			this.replaced.put(DEVICE + "/" + PORT + file, new NoSuchFileException(DEVICE + "/" + PORT + file));
		}

		@Override
		public List<String> list(String path) throws IOException {
			String prefix = path.endsWith("/") ? path : path + "/";
			return this.tree.list(path)
				.stream()
				.filter((name) -> !(this.replaced.get(prefix + name) instanceof NoSuchFileException))
				.toList();
		}

		@Override
		public String read(String path) throws IOException {
			Object replacement = this.replaced.get(path);
			if (replacement instanceof IOException ex) {
				throw ex;
			}
			return (replacement != null) ? (String) replacement : this.tree.read(path);
		}

		@Override
		public @Nullable String resolvedName(String path) {
			return this.tree.resolvedName(path);
		}

		@Override
		public String describe() {
			return this.tree.describe();
		}

	}

}

package io.github.rdmacounters.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import com.sun.jna.Library;
import com.sun.jna.Native;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.rdmacounters.ethtool.EthtoolStatisticsReader;
import io.github.rdmacounters.ethtool.NetdevStatistics;

/**
 * Cost of one read of a netdev's driver statistics by {@link EthtoolStatisticsReader}
 * (count and values; the names are read once), beside {@code ethtool -S} and
 * node_exporter's ethtool collector on the same interface in the same run. The interface
 * is a veth in a network namespace of the benchmark's own, created with 75 queues: 676
 * statistics ({@code peer_ifindex}, 7 per receive queue, 2 per transmit queue), the
 * nearest a veth gets to the 674 of an mlx5 port. Needs root, {@code ip}, {@code ethtool}
 * and {@code prometheus-node-exporter}; the namespace is deleted at the end.
 *
 * @author rdma-counters
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EthtoolReadBenchmark {

	private static final int QUEUES = 75;

	private static final String NETDEV = "rcbench0";

	private final String namespace = "rdmacounters-bench-" + ProcessHandle.current().pid();

	private final ExecutorService inNamespace = Executors.newSingleThreadExecutor();

	private EthtoolStatisticsReader reader;

	private Process exporter;

	private int port;

	/**
	 * Create the namespace and the veth, open the reader in it and start node_exporter.
	 * @throws Exception if a command fails
	 */
	@Setup(Level.Trial)
	public void setUp() throws Exception {
		try {
			start();
		}
		catch (Exception ex) {
			tearDown();
			throw ex;
		}
	}

	private void start() throws Exception {
		run("ip", "netns", "add", this.namespace);
		run("ip", "-n", this.namespace, "link", "set", "lo", "up");
		run("ip", "-n", this.namespace, "link", "add", NETDEV, "numtxqueues", "" + QUEUES, "numrxqueues", "" + QUEUES,
				"type", "veth", "peer", "name", NETDEV + "p", "numtxqueues", "" + QUEUES, "numrxqueues", "" + QUEUES);
		run("ip", "netns", "exec", this.namespace, "ethtool", "-L", NETDEV, "rx", "" + QUEUES, "tx", "" + QUEUES);
		this.inNamespace.submit(() -> {
			Setns libc = Native.load("c", Setns.class);
			int fd = libc.open("/run/netns/" + this.namespace, 0x80000);
			if (fd < 0 || libc.setns(fd, 0x40000000) != 0) {
				throw new IllegalStateException("setns failed: errno " + Native.getLastError());
			}
			libc.close(fd);
			return null;
		}).get();
		this.reader = this.inNamespace.submit(EthtoolStatisticsReader::open).get();
		int count = this.reader.read(NETDEV).size();
		System.out.println(NETDEV + " has " + count + " statistics");
		this.port = ThreadLocalRandom.current().nextInt(20000, 60000);
		this.exporter = new ProcessBuilder("ip", "netns", "exec", this.namespace, "prometheus-node-exporter",
				"--collector.disable-defaults", "--collector.ethtool",
				"--collector.ethtool.device-include=^" + NETDEV + "$", "--web.listen-address=127.0.0.1:" + this.port)
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		for (int attempt = 0; attempt < 100; attempt++) {
			try {
				nodeExporterScrape();
				return;
			}
			catch (Exception ex) {
				TimeUnit.MILLISECONDS.sleep(100);
			}
		}
		throw new IllegalStateException("node_exporter did not answer on 127.0.0.1:" + this.port);
	}

	/**
	 * Stop node_exporter, close the reader and delete the namespace.
	 * @throws Exception if a command fails
	 */
	@TearDown(Level.Trial)
	public void tearDown() throws Exception {
		if (this.exporter != null) {
			this.exporter.destroy();
			this.exporter.waitFor(30, TimeUnit.SECONDS);
		}
		if (this.reader != null) {
			this.reader.close();
		}
		this.inNamespace.shutdownNow();
		run("ip", "netns", "del", this.namespace);
	}

	/**
	 * One read: {@code ETHTOOL_GSSET_INFO} and {@code ETHTOOL_GSTATS}, names cached.
	 * @return the statistics
	 */
	@Benchmark
	public NetdevStatistics read() {
		return this.reader.read(NETDEV);
	}

	/**
	 * One read with the names read again ({@code ETHTOOL_GSTRINGS} too), as after a
	 * change of the count.
	 * @return the statistics
	 */
	@Benchmark
	public NetdevStatistics readWithNames() {
		this.reader.forget(NETDEV);
		return this.reader.read(NETDEV);
	}

	/**
	 * {@code ethtool -S}, started from a thread in the namespace (the child inherits its
	 * network namespace): a process start, three ioctls and the printing.
	 * @return the output
	 * @throws Exception if it fails
	 */
	@Benchmark
	public String ethtoolCommand() throws Exception {
		return this.inNamespace.submit(() -> {
			Process process = new ProcessBuilder("ethtool", "-S", NETDEV).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			process.waitFor();
			return output;
		}).get();
	}

	/**
	 * One scrape of node_exporter with only its ethtool collector, limited to the veth,
	 * over HTTP from a thread in the namespace.
	 * @return the exposition text
	 * @throws Exception if it fails
	 */
	@Benchmark
	public String nodeExporterScrape() throws Exception {
		return this.inNamespace.submit(this::scrape).get();
	}

	private String scrape() throws IOException {
		HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + this.port + "/metrics")
			.toURL()
			.openConnection();
		try (InputStream in = connection.getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		finally {
			connection.disconnect();
		}
	}

	private static void run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.waitFor() != 0) {
			throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
		}
	}

	/**
	 * The C library calls that move a thread into a network namespace.
	 */
	public interface Setns extends Library {

		/**
		 * {@code open(2)}.
		 * @param path the path
		 * @param flags the flags
		 * @return the file descriptor or -1
		 */
		int open(String path, int flags);

		/**
		 * {@code setns(2)}.
		 * @param fd the namespace file
		 * @param nstype the namespace type
		 * @return 0 or -1
		 */
		int setns(int fd, int nstype);

		/**
		 * {@code close(2)}.
		 * @param fd the file descriptor
		 * @return 0 or -1
		 */
		int close(int fd);

	}

}

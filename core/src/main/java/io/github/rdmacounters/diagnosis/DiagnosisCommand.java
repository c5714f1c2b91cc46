package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.verbs.NativeBackend;

/**
 * The command {@code java -jar rdma-counters-diagnosis.jar [--json] [--probe]
 * [--sysfs-root DIR] [--library FILE]}: prints the {@link DiagnosisReport} of this host
 * as text or JSON and exits 0, names a bad argument and exits 2, or exits 1 when the
 * diagnosis fails or its report cannot be written.
 *
 * @since 0.1.0
 */
public final class DiagnosisCommand {

	/** The exit code of a report, whatever it says. */
	public static final int OK = 0;

	/**
	 * The exit code of a diagnosis that failed unexpectedly, or whose report could not be
	 * written.
	 */
	public static final int FAILED = 1;

	/** The exit code of a bad argument. */
	public static final int USAGE = 2;

	static final String USAGE_TEXT = """
			Usage: java -jar rdma-counters-diagnosis.jar [--json] [--probe] [--sysfs-root DIR] [--library FILE]
			  --json             print the report as JSON (schemaVersion 1) instead of text
			  --probe            on each Ethernet port, create and destroy what a counter set needs
			                     (PD, CQ, raw packet QP, counters, a don't-trap counted flow);
			                     without it nothing is created on the host
			  --sysfs-root DIR   the /sys/class/infiniband to read (default /sys/class/infiniband)
			  --library FILE     the libibverbs to load (default libibverbs.so.1)
			  --help             print this text
			""";

	private DiagnosisCommand() {
	}

	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err));
	}

	/**
	 * Run the command.
	 * @param args the arguments
	 * @param out where the report goes
	 * @param err where errors go
	 * @return the exit code
	 */
	static int run(String[] args, PrintStream out, PrintStream err) {
		boolean json = false;
		boolean probe = false;
		HostPaths paths = HostPaths.system();
		String library = NativeBackend.DEFAULT_LIBRARY;
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
			boolean takesValue = name.equals("--sysfs-root") || name.equals("--library");
			if (!takesValue && !name.equals(arg)) {
				return usage(err, "The argument '" + arg + "' takes no value");
			}
			String value = null;
			if (takesValue) {
				if (!name.equals(arg)) {
					value = arg.substring(name.length() + 1);
				}
				else if (i + 1 < args.length) {
					value = args[++i];
				}
				if (value == null || value.isEmpty()) {
					return usage(err, "The argument '" + name + "' needs a value"
							+ (name.equals("--sysfs-root") ? ": a directory" : ": a library name or file"));
				}
			}
			switch (name) {
				case "--json" -> json = true;
				case "--probe" -> probe = true;
				case "--help", "-h" -> {
					out.print(USAGE_TEXT);
					return OK;
				}
				case "--sysfs-root" -> {
					Path root = directory(value);
					if (root == null) {
						return usage(err, "The argument '--sysfs-root " + value + "' is not a directory; give the "
								+ "directory that holds one directory per RDMA device, like /sys/class/infiniband");
					}
					String notRdma = notAClassDirectory(root);
					if (notRdma != null) {
						return usage(err, "The argument '--sysfs-root " + value + "' " + notRdma);
					}
					paths = paths.withSysfsRoot(root);
				}
				case "--library" -> library = value;
				default -> {
					return usage(err, "Unknown argument '" + arg + "'");
				}
			}
		}
		try {
			DiagnosisReport report = HostDiagnosis.builder(new NativeBackend(library))
				.paths(paths)
				.probe(probe)
				.build()
				.run();
			out.print(json ? ReportJson.write(report) : ReportText.write(report));
			out.flush();
			if (out.checkError()) {
				// PrintStream keeps a failed write to itself: a closed or full standard
				// output
				err.println("The report could not be written to standard output (closed, or a full disk); "
						+ "redirect it to a writable file");
				return FAILED;
			}
			return OK;
		}
		catch (RuntimeException ex) {
			err.println("The diagnosis failed: " + ex);
			return FAILED;
		}
	}

	private static @Nullable Path directory(String value) {
		try {
			Path path = Path.of(value);
			return Files.isDirectory(path) ? path : null;
		}
		catch (InvalidPathException ex) {
			return null;
		}
	}

	/**
	 * Why a directory is not a sysfs RDMA class directory, or {@code null} if it may be
	 * one: empty (the RDMA modules loaded, no device), unlistable (the report says so),
	 * or with an entry that has a {@code ports} directory, as every {@code ib_device}
	 * does ({@code ib_setup_port_attrs} in drivers/infiniband/core/sysfs.c).
	 */
	private static @Nullable String notAClassDirectory(Path root) {
		List<String> entries;
		try (Stream<Path> list = Files.list(root)) {
			entries = list.map((entry) -> entry.getFileName().toString()).sorted().toList();
		}
		catch (IOException | UncheckedIOException ex) {
			return null;
		}
		if (entries.isEmpty()
				|| entries.stream().anyMatch((entry) -> Files.isDirectory(root.resolve(entry).resolve("ports")))) {
			return null;
		}
		String shown = String.join(", ", entries.subList(0, Math.min(3, entries.size())))
				+ ((entries.size() > 3) ? ", ..." : "");
		return "is not an RDMA class directory: none of its " + entries.size()
				+ ((entries.size() == 1) ? " entry (" : " entries (") + shown
				+ ") is a device with a ports directory; give the directory that holds one directory per RDMA "
				+ "device, like /sys/class/infiniband";
	}

	private static int usage(PrintStream err, String message) {
		err.println(message + ".");
		err.print(USAGE_TEXT);
		return USAGE;
	}

}

package io.github.rdmacounters.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Builds the C sources of the tests (test resources) with {@code gcc} against the
 * installed {@code <infiniband/verbs.h>}, into {@code target/native-build} (or the
 * directory of the {@code rdmacounters.native-build.dir} system property). Outputs are
 * named by the hash of their preprocessed source (so of every header it includes, found
 * through {@code CPATH} as gcc does), so a source is compiled once until it or a header
 * changes. A missing compiler or header is a failure that says what to install, never a
 * skipped test.
 *
 * @author rdma-counters
 */
public final class NativeBuild {

	/** What to install when the build fails. */
	public static final String INSTALL_HINT = "apt-get install -y gcc libibverbs-dev";

	private static final Duration BUILD_TIMEOUT = Duration.ofSeconds(120);

	private static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);

	private NativeBuild() {
	}

	/**
	 * Build a shared library from a C test resource.
	 * @param resource the class-path resource, e.g. {@code fake-ibverbs/fake_ibverbs.c}
	 * @param name the base name of the output
	 * @return the absolute path of the library
	 * @throws IllegalStateException if gcc or the header is missing or the source does
	 * not compile
	 */
	public static Path sharedLibrary(String resource, String name) {
		return build(resource, "lib" + name, ".so", List.of("-shared", "-fPIC", "-O2", "-fvisibility=hidden"),
				List.of("-lpthread"));
	}

	/**
	 * Build an executable from a C test resource.
	 * @param resource the class-path resource
	 * @param name the base name of the output
	 * @return the absolute path of the executable
	 * @throws IllegalStateException if gcc or the header is missing or the source does
	 * not compile
	 */
	public static Path executable(String resource, String name) {
		return executable(resource, name, List.of());
	}

	/**
	 * Build an executable from a C test resource with extra compiler flags.
	 * @param resource the class-path resource
	 * @param name the base name of the output
	 * @param flags extra flags, e.g. {@code -DNAME}
	 * @return the absolute path of the executable
	 * @throws IllegalStateException if gcc or the header is missing or the source does
	 * not compile
	 */
	public static Path executable(String resource, String name, List<String> flags) {
		List<String> all = new ArrayList<>(List.of("-O0"));
		all.addAll(flags);
		return build(resource, name, "", all, List.of());
	}

	/**
	 * Run a program and return its standard output.
	 * @param program the program
	 * @return what it printed
	 * @throws IllegalStateException if it fails
	 */
	public static String run(Path program) {
		Result result = run(List.of(program.toString()), RUN_TIMEOUT);
		if (result.exitCode() != 0) {
			throw new IllegalStateException(
					program.getFileName() + " failed with exit code " + result.exitCode() + ":\n" + result.output());
		}
		return result.output();
	}

	/**
	 * Run a command with a time limit. Its output (standard output and error together)
	 * goes to a file, so a command that prints much never blocks on a full pipe and the
	 * limit applies however the command behaves; a command still running at the limit is
	 * killed.
	 * @param command the program and its arguments
	 * @param timeout how long it may run
	 * @return its exit code and output
	 * @throws IllegalStateException if it cannot be started or runs longer than the
	 * timeout
	 */
	public static Result run(List<String> command, Duration timeout) {
		return run(command, timeout, Map.of());
	}

	/**
	 * Run a command with a time limit and extra environment variables, as
	 * {@link #run(List, Duration)} does.
	 * @param command the program and its arguments
	 * @param timeout how long it may run
	 * @param environment variables to set (or override) for the command
	 * @return its exit code and output
	 * @throws IllegalStateException if it cannot be started or runs longer than the
	 * timeout
	 */
	static Result run(List<String> command, Duration timeout, Map<String, String> environment) {
		String name = Path.of(command.get(0)).getFileName().toString();
		Path log = null;
		try {
			log = Files.createTempFile("native-build-" + name + "-", ".log");
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
			builder.environment().putAll(environment);
			Process process = builder.start();
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly();
				process.waitFor(10, TimeUnit.SECONDS);
				throw new IllegalStateException(name + " did not finish within " + timeout.toSeconds()
						+ " s and was killed; command: " + String.join(" ", command) + "\n" + read(log));
			}
			return new Result(process.exitValue(), read(log));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + String.join(" ", command) + " (" + ex.getMessage() + ")",
					ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + String.join(" ", command), ex);
		}
		finally {
			if (log != null) {
				try {
					Files.deleteIfExists(log);
				}
				catch (IOException ex) {
					// a leftover log in the temporary directory is harmless
				}
			}
		}
	}

	/**
	 * Return the file the dynamic loader mapped for a library that this JVM has loaded,
	 * as {@code /proc/self/maps} lists it.
	 * @param soname the name it was loaded by, e.g. {@code libibverbs.so.1}
	 * @return the file (the target of the soname's symbolic link)
	 * @throws IllegalStateException if the library is not mapped
	 */
	public static Path loadedLibrary(String soname) {
		String base = soname.substring(0, soname.indexOf(".so") + 3);
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
				int slash = line.indexOf('/');
				if (slash >= 0) {
					Path file = Path.of(line.substring(slash).trim());
					if (file.getFileName().toString().startsWith(base)) {
						return file;
					}
				}
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read /proc/self/maps", ex);
		}
		throw new IllegalStateException(soname + " is not loaded in this JVM; install it: " + INSTALL_HINT);
	}

	/**
	 * Copy the first bytes of a file, as a download or copy that stopped early leaves it.
	 * @param file the complete file
	 * @param length how many bytes to keep
	 * @param directory where to write the copy
	 * @return the truncated copy, named like the original
	 */
	public static Path truncatedCopy(Path file, int length, Path directory) {
		try {
			byte[] bytes = Files.readAllBytes(file);
			if (length >= bytes.length) {
				throw new IllegalArgumentException(file + " has only " + bytes.length + " bytes");
			}
			Path copy = directory.resolve(length + "-" + file.getFileName());
			Files.write(copy, Arrays.copyOf(bytes, length));
			return copy;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot copy " + file, ex);
		}
	}

	private static String read(Path log) throws IOException {
		return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
	}

	/**
	 * The outcome of a command that finished in time.
	 *
	 * @param exitCode its exit code
	 * @param output its standard output and error
	 */
	public record Result(int exitCode, String output) {
	}

	private static Path build(String resource, String name, String suffix, List<String> flags, List<String> libraries) {
		return build(resource, name, suffix, flags, libraries, Map.of());
	}

	/**
	 * Build a C test resource, reusing an earlier output only if the preprocessed source
	 * is the same: the key is the hash of {@code gcc -E} with the same flags and
	 * environment ({@code CPATH}, {@code C_INCLUDE_PATH}), so it covers the content and
	 * location of every header the source includes as well as the source and the flags.
	 * @param resource the class-path resource
	 * @param name the base name of the output
	 * @param suffix the suffix of the output
	 * @param flags the compiler flags
	 * @param libraries the libraries to link
	 * @param environment extra environment variables of the compiler, e.g. {@code CPATH}
	 * @return the absolute path of the output
	 */
	static Path build(String resource, String name, String suffix, List<String> flags, List<String> libraries,
			Map<String, String> environment) {
		byte[] source = read(resource);
		Path dir = Path.of(System.getProperty("rdmacounters.native-build.dir", "target/native-build")).toAbsolutePath();
		try {
			Files.createDirectories(dir);
			Path sourceFile = dir.resolve(name + "-" + hash(List.of(source), flags) + ".c");
			if (!Files.isRegularFile(sourceFile)) {
				Path temporarySource = Files.createTempFile(dir, name + "-", ".c.tmp");
				Files.write(temporarySource, source);
				Files.move(temporarySource, sourceFile, StandardCopyOption.ATOMIC_MOVE,
						StandardCopyOption.REPLACE_EXISTING);
			}
			byte[] preprocessed = preprocess(resource, sourceFile, flags, environment);
			String hash = hash(List.of(preprocessed, String.join(" ", libraries).getBytes(StandardCharsets.UTF_8)),
					flags);
			Path output = dir.resolve(name + "-" + hash + suffix);
			if (Files.isRegularFile(output)) {
				return output;
			}
			Path temporary = Files.createTempFile(dir, name + "-", ".tmp");
			List<String> command = new ArrayList<>();
			command.add("gcc");
			command.addAll(flags);
			command.addAll(List.of("-Wall", "-o", temporary.toString(), sourceFile.toString()));
			command.addAll(libraries);
			Result result;
			try {
				result = run(command, BUILD_TIMEOUT, environment);
			}
			catch (IllegalStateException ex) {
				Files.deleteIfExists(temporary);
				throw new IllegalStateException("Cannot build " + resource + " with gcc, which the tests need: "
						+ ex.getMessage() + "; install it: " + INSTALL_HINT, ex);
			}
			if (result.exitCode() != 0) {
				Files.deleteIfExists(temporary);
				throw new IllegalStateException("gcc could not build " + resource + " against <infiniband/verbs.h>; "
						+ "install the compiler and the header: " + INSTALL_HINT + "\n" + result.output());
			}
			Files.move(temporary, output, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			return output;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot build " + resource + " in " + dir, ex);
		}
	}

	private static byte[] preprocess(String resource, Path sourceFile, List<String> flags,
			Map<String, String> environment) throws IOException {
		Path preprocessed = Files.createTempFile(sourceFile.getParent(), "preprocessed-", ".i");
		try {
			List<String> command = new ArrayList<>();
			command.add("gcc");
			command.add("-E");
			command.addAll(flags);
			command.addAll(List.of("-o", preprocessed.toString(), sourceFile.toString()));
			Result result;
			try {
				result = run(command, BUILD_TIMEOUT, environment);
			}
			catch (IllegalStateException ex) {
				throw new IllegalStateException("Cannot preprocess " + resource + " with gcc, which the tests need: "
						+ ex.getMessage() + "; install it: " + INSTALL_HINT, ex);
			}
			if (result.exitCode() != 0) {
				throw new IllegalStateException("gcc could not preprocess " + resource
						+ " (is <infiniband/verbs.h> installed, or CPATH set to a header tree?); install the "
						+ "compiler and the header: " + INSTALL_HINT + "\n" + result.output());
			}
			return Files.readAllBytes(preprocessed);
		}
		finally {
			Files.deleteIfExists(preprocessed);
		}
	}

	private static byte[] read(String resource) {
		try (InputStream in = NativeBuild.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("Test resource " + resource + " is missing from the class path");
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + resource, ex);
		}
	}

	private static String hash(List<byte[]> parts, List<String> flags) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			for (byte[] part : parts) {
				digest.update(part);
				digest.update((byte) 0);
			}
			digest.update(String.join(" ", flags).getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

package io.github.rdmacounters.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the C sources of the tests (test resources) with {@code gcc} against the installed
 * {@code <infiniband/verbs.h>}, into {@code target/native-build} (or the directory of the
 * {@code rdmacounters.native-build.dir} system property). Outputs are named by the hash of
 * their source, so a source is compiled once until it changes. A missing compiler or header
 * is a failure that says what to install, never a skipped test.
 *
 * @author rdma-counters
 */
public final class NativeBuild {

	/** What to install when the build fails. */
	public static final String INSTALL_HINT = "apt-get install -y gcc libibverbs-dev";

	private NativeBuild() {
	}

	/**
	 * Build a shared library from a C test resource.
	 * @param resource the class-path resource, e.g. {@code fake-ibverbs/fake_ibverbs.c}
	 * @param name the base name of the output
	 * @return the absolute path of the library
	 * @throws IllegalStateException if gcc or the header is missing or the source does not
	 * compile
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
	 * @throws IllegalStateException if gcc or the header is missing or the source does not
	 * compile
	 */
	public static Path executable(String resource, String name) {
		return build(resource, name, "", List.of("-O0"), List.of());
	}

	/**
	 * Run a program and return its standard output.
	 * @param program the program
	 * @return what it printed
	 * @throws IllegalStateException if it fails
	 */
	public static String run(Path program) {
		try {
			Process process = new ProcessBuilder(program.toString()).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException(program.getFileName() + " failed:\n" + output);
			}
			return output;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + program, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + program, ex);
		}
	}

	private static Path build(String resource, String name, String suffix, List<String> flags,
			List<String> libraries) {
		byte[] source = read(resource);
		String hash = hash(source, flags);
		Path dir = Path.of(System.getProperty("rdmacounters.native-build.dir", "target/native-build"))
			.toAbsolutePath();
		Path output = dir.resolve(name + "-" + hash + suffix);
		if (Files.isRegularFile(output)) {
			return output;
		}
		try {
			Files.createDirectories(dir);
			Path sourceFile = dir.resolve(name + "-" + hash + ".c");
			Files.write(sourceFile, source);
			Path temporary = Files.createTempFile(dir, name + "-", ".tmp");
			List<String> command = new ArrayList<>();
			command.add("gcc");
			command.addAll(flags);
			command.addAll(List.of("-Wall", "-o", temporary.toString(), sourceFile.toString()));
			command.addAll(libraries);
			Process process;
			try {
				process = new ProcessBuilder(command).redirectErrorStream(true).start();
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot run gcc, which the tests need to build " + resource + " ("
						+ ex.getMessage() + "); install it: " + INSTALL_HINT, ex);
			}
			String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
				Files.deleteIfExists(temporary);
				throw new IllegalStateException("gcc could not build " + resource + " against <infiniband/verbs.h>; "
						+ "install the compiler and the header: " + INSTALL_HINT + "\n" + log);
			}
			Files.move(temporary, output, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			return output;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot build " + resource + " in " + dir, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while building " + resource, ex);
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

	private static String hash(byte[] source, List<String> flags) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			digest.update(source);
			digest.update(String.join(" ", flags).getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

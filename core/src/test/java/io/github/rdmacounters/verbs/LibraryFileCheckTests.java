package io.github.rdmacounters.verbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.RdmaUnavailableException.Reason;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.NativeBuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that a library path naming a truncated or corrupt file fails cleanly instead of
 * reaching {@code dlopen}, which dies with {@code SIGBUS} on a truncated ELF file.
 *
 * @author rdma-counters
 */
class LibraryFileCheckTests {

	@TempDir
	Path dir;

	private static Path realLibrary() {
		assertThat(new NativeBackend().unavailabilityCause()).as("libibverbs.so.1 loads").isNull();
		return NativeBuild.loadedLibrary(NativeBackend.DEFAULT_LIBRARY);
	}

	@Test
	void completeRealLibraryAndFakePassTheCheck() {
		assertThat(ElfCheck.problem(realLibrary())).isNull();
		assertThat(ElfCheck.problem(Path.of(FakeVerbs.get().libraryPath()))).isNull();
	}

	@ParameterizedTest
	@ValueSource(ints = { 2, 40, 64, 4096 })
	void truncatedCopyOfTheRealLibraryFailsAsNotLoadableNamingTheConfiguredValue(int length) {
		Path truncated = NativeBuild.truncatedCopy(realLibrary(), length, this.dir);
		String configured = truncated.toString();
		NativeBackend backend = new NativeBackend(configured);
		assertThat(backend.unavailabilityCause()).isNotNull();
		assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(backend::devices)
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.LIBRARY_NOT_LOADABLE))
			.withMessageStartingWith("Cannot load the libibverbs library '" + configured + "': it ")
			.withMessageContaining("truncated")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("\n"))
			.satisfies((ex) -> assertThat(ex.getCause()).isNull());
	}

	@Test
	void truncatedCopyOfTheFakeFailsSayingWhichTableEndsBeyondTheFile() throws IOException {
		Path fake = Path.of(FakeVerbs.get().libraryPath());
		long size = Files.size(fake);
		Path truncated = NativeBuild.truncatedCopy(fake, (int) (size / 2), this.dir);
		assertThatExceptionOfType(RdmaUnavailableException.class)
			.isThrownBy(() -> new NativeBackend(truncated.toString()).devices())
			.withMessageContaining("the file has " + (size / 2) + " bytes but its ")
			.withMessageMatching(".*(section header table|segment \\d+) ends at byte \\d+.*");
	}

	@Test
	void relativePathIsReportedAsConfiguredNotResolved() throws IOException {
		Path truncated = NativeBuild.truncatedCopy(realLibrary(), 4096, this.dir);
		Path relative = Path.of("").toAbsolutePath().relativize(truncated);
		assertThatExceptionOfType(RdmaUnavailableException.class)
			.isThrownBy(() -> new NativeBackend(relative.toString()).devices())
			.withMessageStartingWith("Cannot load the libibverbs library '" + relative + "'")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("'" + truncated));
	}

	@Test
	void textFileIsNotAnElfFile() throws IOException {
		Path text = Files.writeString(this.dir.resolve("libibverbs.so.1"), "INPUT(libibverbs.so.1.14)\n");
		assertThatExceptionOfType(RdmaUnavailableException.class)
			.isThrownBy(() -> new NativeBackend(text.toString()).devices())
			.withMessageContaining("it is not an ELF file");
	}

	@Test
	void executableOr32BitObjectIsRefusedSayingWhatItIs() throws IOException {
		byte[] library = Files.readAllBytes(realLibrary());
		byte[] executable = library.clone();
		executable[16] = 2; // e_type ET_EXEC (little endian u16 at 16)
		Path exec = Files.write(this.dir.resolve("exec.so"), executable);
		assertThat(ElfCheck.problem(exec)).isEqualTo("it is not a shared object (e_type 2, a shared object has 3)");
		byte[] class32 = library.clone();
		class32[4] = 1; // EI_CLASS ELFCLASS32
		Path elf32 = Files.write(this.dir.resolve("elf32.so"), class32);
		assertThat(ElfCheck.problem(elf32)).isEqualTo("it is not a 64-bit ELF object (EI_CLASS 1)");
	}

	@Test
	void segmentOffsetBeyondTheFileIsRefusedEvenWhenTheTablesFit() throws IOException {
		byte[] library = Files.readAllBytes(realLibrary());
		java.nio.ByteBuffer elf = ByteBuffer.wrap(library).order(ByteOrder.LITTLE_ENDIAN);
		long phoff = elf.getLong(32);
		elf.putLong((int) phoff + 32, Long.MAX_VALUE); // p_filesz of the first segment
		Path corrupt = Files.write(this.dir.resolve("corrupt.so"), library);
		assertThat(ElfCheck.problem(corrupt)).startsWith("it is truncated or corrupt: the file has " + library.length
				+ " bytes but its segment 0 ends at byte ");
	}

	@Test
	void missingFileIsLeftToTheLoaderWhoseReasonIsKept() {
		assertThat(ElfCheck.problem(this.dir.resolve("absent.so"))).isNull();
		assertThatExceptionOfType(RdmaUnavailableException.class)
			.isThrownBy(() -> new NativeBackend(this.dir.resolve("absent.so").toString()).devices())
			.withMessageContaining("No such file or directory");
	}

}

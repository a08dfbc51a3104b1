import ComposeSoakApp
import Testing

/// A short run of the soak (`swift run ComposeSoak` runs 100,000 actions in CI): every invariant
/// holds through a few thousand random actions, and two seeds take different paths.
@Suite(.serialized) struct SoakTests {  // Serialized: the soak counts process-wide live entities.
    @Test(arguments: [1, 2] as [UInt64])
    func aShortSoakKeepsEveryInvariant(seed: UInt64) async {
        var configuration = Soak.Configuration()
        configuration.actions = 3_000
        configuration.seed = seed
        let report = await Soak.run(configuration)
        #expect(report.failures.isEmpty, "\(report.failures.prefix(5))")
        #expect(report.actions == 3_000)
        #expect(report.saves >= 30)
        // Every kind of action happened.
        #expect(report.actionCounts.count >= 12, "\(report.actionCounts)")
    }
}
